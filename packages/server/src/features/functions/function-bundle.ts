import { build, type Message, type Plugin } from 'esbuild';
import { badRequest } from '../../http/errors.js';

// Deploying a function bundles its source into one ES module for Deno: TypeScript is stripped (types are not
// checked, as `supabase functions deploy` does not check them either), and imports are resolved now, once, because
// nothing is downloaded at run time (the runtime runs with --no-remote --cached-only). What a Supabase function
// imports from the network is mapped to what Basalt ships:
//   - @supabase/supabase-js under any of its usual names (npm:, jsr:, esm.sh, jsdelivr, bare) → the vendored copy
//     that the runtime's import map provides (runtime/vendor.ts), so every function shares one compiled copy;
//   - type-only imports (…/edge-runtime.d.ts and other .d.ts) → nothing;
//   - deno.land/std's http/server.ts `serve` → Deno.serve;
//   - node: built-ins stay as they are (Deno provides them; permissions still apply).
// Anything else is refused with its line and column, as a syntax error is.

/** SUPABASE_JS_SPECIFIER is the one name function bundles import supabase-js by; the import map resolves it. */
export const SUPABASE_JS_SPECIFIER = '@supabase/supabase-js';

const SUPABASE_JS = [
  /^(?:npm:|jsr:)?@supabase\/supabase-js(?:@[^/]*)?(\/.*)?$/,
  /^https:\/\/(?:esm\.sh|cdn\.skypack\.dev|cdn\.jsdelivr\.net\/npm|unpkg\.com)\/(?:v\d+\/)?@supabase\/supabase-js(?:@[^/?]*)?(\/[^?]*)?(?:\?.*)?$/,
];
const TYPES_ONLY = /\.d\.ts$|^(?:npm:|jsr:)@supabase\/functions-js(?:@[^/]*)?\/edge-runtime\.d\.ts$/;
const STD_HTTP_SERVER = /^https:\/\/deno\.land\/std(?:@[^/]*)?\/http\/server\.ts$/;

const SERVE_SHIM = `export function serve(handler, options) { return Deno.serve(options ?? {}, handler); }`;

function supabaseSubpath(specifier: string): string | null {
  for (const pattern of SUPABASE_JS) {
    const match = pattern.exec(specifier);
    if (match) return match[1] && match[1] !== '/' ? match[1] : '';
  }
  return null;
}

const offlineImports: Plugin = {
  name: 'basalt-offline-imports',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, ({ path, kind }) => {
      if (kind === 'entry-point') return undefined;
      const subpath = supabaseSubpath(path);
      if (subpath !== null) {
        if (subpath !== '' && subpath !== '/cors') {
          return {
            errors: [{ text: `Cannot import "${path}": Basalt provides @supabase/supabase-js and its /cors entry` }],
          };
        }
        return { path: `${SUPABASE_JS_SPECIFIER}${subpath}`, external: true };
      }
      if (TYPES_ONLY.test(path)) return { path, namespace: 'basalt-empty' };
      if (STD_HTTP_SERVER.test(path)) return { path, namespace: 'basalt-serve' };
      if (path.startsWith('node:')) return { path, external: true };
      if (path.startsWith('.') || path.startsWith('/')) {
        return { errors: [{ text: `Cannot import "${path}": a function is one file; put that code in it` }] };
      }
      return {
        errors: [
          {
            text: `Cannot import "${path}": functions run offline and Basalt provides only @supabase/supabase-js; put the code you need in the function`,
          },
        ],
      };
    });
    builder.onLoad({ filter: /.*/, namespace: 'basalt-empty' }, () => ({ contents: '', loader: 'js' }));
    builder.onLoad({ filter: /.*/, namespace: 'basalt-serve' }, () => ({ contents: SERVE_SHIM, loader: 'js' }));
  },
};

function describe(message: Message): string {
  const at = message.location;
  return at ? `Line ${at.line}, column ${at.column + 1}: ${message.text}` : message.text;
}

/** bundleFunction turns a function's source into the module Deno runs, or throws a 400 naming the first error's place. */
export async function bundleFunction(code: string): Promise<string> {
  try {
    const result = await build({
      stdin: { contents: code, loader: 'ts', sourcefile: 'index.ts' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'esnext',
      write: false,
      // Stack traces in the function's log point at the lines of its source.
      sourcemap: 'inline',
      sourcesContent: false,
      logLevel: 'silent',
      plugins: [offlineImports],
    });
    return result.outputFiles[0]?.text ?? '';
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors?.[0]) throw error;
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw badRequest('function_build_failed', `${describe(first)}${more}`, {
      details: {
        errors: errors.slice(0, 10).map((e) => ({
          message: e.text,
          line: e.location?.line ?? null,
          column: e.location ? e.location.column + 1 : null,
        })),
      },
    });
  }
}
