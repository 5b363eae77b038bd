import type { FunctionsConfig } from '../../../config.js';

// The command line of a function's Deno process: what it may do, and nothing else (function-process.ts has the
// why of each part).
//   --no-remote --no-npm --cached-only --no-config --no-lock   nothing is resolved or downloaded at run time
//   --import-map              @supabase/supabase-js → the vendored copy (runtime-files.ts)
//   --allow-read/--allow-write  only its own socket file (needed to listen on it)
//   --allow-net               only its socket and the egress gateway (egress-gateway.ts)
//   --allow-env               only its secrets' names and SUPABASE_*; no run, ffi, sys or other file access
//   --max-old-space-size      its V8 heap, FUNCTIONS_MEMORY_MB
// and a clean environment: Basalt's DENO_DIR, no update check, nothing of the server's own variables.

/** ProcessSpec is what one process runs and with what. */
export interface ProcessSpec {
  /** token identifies the process to the egress gateway. */
  token: string;
  functionId: number;
  accountId: string;
  version: number;
  entry: string;
  importMap: string;
  denoDir: string;
  denoPath: string;
  socketPath: string;
  gatewayUrl: string;
  gatewayAddress: string;
  environment: Record<string, string>;
  limits: FunctionsConfig;
}

/** DenoCommand is an executable, its arguments and its whole environment. */
export interface DenoCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

const SUPABASE_NAMES = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'];

/** denoCommand is the command that runs one process of a function version. */
export function denoCommand(spec: ProcessSpec): DenoCommand {
  const envNames = [...new Set([...SUPABASE_NAMES, ...Object.keys(spec.environment)])];
  return {
    file: spec.denoPath,
    args: [
      'run',
      '--no-prompt',
      '--no-remote',
      '--no-npm',
      '--cached-only',
      '--no-config',
      '--no-lock',
      `--import-map=${spec.importMap}`,
      `--allow-read=${spec.socketPath}`,
      `--allow-write=${spec.socketPath}`,
      `--allow-net=unix:${spec.socketPath},${spec.gatewayAddress}`,
      `--allow-env=${envNames.join(',')}`,
      `--v8-flags=--max-old-space-size=${spec.limits.memoryMb}`,
      spec.entry,
    ],
    env: { DENO_DIR: spec.denoDir, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
  };
}
