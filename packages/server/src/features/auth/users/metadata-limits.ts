import { invalid } from '../../../http/errors.js';

// user_metadata and app_metadata are copied into every access token (as GoTrue does), and the token travels in
// the Authorization header of every later request. Node.js refuses a request whose headers pass 16 KiB (431), so
// together they stay at 6 KiB of JSON: the largest token is then about 9 KB, with room beside it for the apikey,
// cookies and what proxies add. user_metadata gets the larger share because users write it; app_metadata is the
// administrator's (roles, plan, tenant).
/** USER_METADATA_MAX_BYTES is the largest user_metadata, as UTF-8 JSON. */
const USER_METADATA_MAX_BYTES = 4096;
/** APP_METADATA_MAX_BYTES is the largest app_metadata, as UTF-8 JSON. */
const APP_METADATA_MAX_BYTES = 2048;
/**
 * METADATA_MAX_DEPTH is how deeply metadata may nest (the object itself is level 1). The depth is checked by a
 * loop before anything recursive (JSON.stringify, the token signer) reads the value: thousands of levels would
 * overflow the stack.
 */
const METADATA_MAX_DEPTH = 32;

/** MetadataField names the two metadata objects of an account. */
export type MetadataField = 'user_metadata' | 'app_metadata';

const LIMITS: Record<MetadataField, { label: string; maxBytes: number }> = {
  user_metadata: { label: 'User metadata', maxBytes: USER_METADATA_MAX_BYTES },
  app_metadata: { label: 'App metadata', maxBytes: APP_METADATA_MAX_BYTES },
};

function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (depth > max) return true;
    for (const child of Object.values(node as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

// The providers Basalt keeps in app_metadata (identities.service.ts) are its own, not the caller's: not counted.
function callersOwn(metadata: Record<string, unknown>): Record<string, unknown> {
  const own = { ...metadata };
  delete own.provider;
  delete own.providers;
  return own;
}

/**
 * serializeMetadata returns an account's metadata as the JSON it is stored as, or throws GoTrue's 400
 * validation_failed (naming the field) when it nests too deeply or is too large for an access token.
 */
export function serializeMetadata(field: MetadataField, metadata: Record<string, unknown>): string {
  const { label, maxBytes } = LIMITS[field];
  if (nestsDeeperThan(metadata, METADATA_MAX_DEPTH)) {
    throw invalid({ [field]: [`${label} must not be nested more than ${METADATA_MAX_DEPTH} levels deep`] });
  }
  const json = JSON.stringify(metadata);
  if (Buffer.byteLength(JSON.stringify(field === 'app_metadata' ? callersOwn(metadata) : metadata)) > maxBytes) {
    throw invalid({
      [field]: [`${label} must be at most ${maxBytes / 1024} KiB as JSON: it is copied into every access token`],
    });
  }
  return json;
}
