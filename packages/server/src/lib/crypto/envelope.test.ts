import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecryptionError, generateKey, open, seal } from './envelope.js';
import { loadKeyring, MASTER_KEY_FILE, MasterKeyError, parseMasterKey } from './master-key.js';

describe('envelope', () => {
  const key = generateKey();

  it('seals to a v1 line that opens only with the same key and associated data', () => {
    const sealed = seal(key, 'hunter2', 'secret\u00001\u0000DB_PASSWORD');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(open(key, sealed, 'secret\u00001\u0000DB_PASSWORD').toString()).toBe('hunter2');
    expect(() => open(key, sealed, 'secret\u00002\u0000DB_PASSWORD')).toThrow(DecryptionError);
    expect(() => open(generateKey(), sealed, 'secret\u00001\u0000DB_PASSWORD')).toThrow(DecryptionError);
  });

  it('uses a fresh nonce each time and refuses tampering or another format', () => {
    const a = seal(key, 'same', 'ad');
    expect(seal(key, 'same', 'ad')).not.toBe(a);
    const parts = a.split('.');
    const body = Buffer.from(parts[2] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    const tampered = [parts[0], parts[1], body.toString('base64url'), parts[3]].join('.');
    expect(() => open(key, tampered, 'ad')).toThrow(DecryptionError);
    expect(() => open(key, 'plain text', 'ad')).toThrow(DecryptionError);
    expect(() => open(key, `${a}.x`, 'ad')).toThrow(DecryptionError);
  });
});

describe('master key', () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-master-'));

  it('is generated once into the data dir with mode 0600, and read back the same', () => {
    const dataDir = tmp();
    const first = loadKeyring({ masterKey: null, previousMasterKey: null, dataDir });
    const file = path.join(dataDir, MASTER_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadKeyring({ masterKey: null, previousMasterKey: null, dataDir });
    expect(again.current.id).toBe(first.current.id);
    fs.rmSync(dataDir, { recursive: true });
  });

  it('reads BASALT_MASTER_KEY as base64 or hex and refuses anything else with advice', () => {
    const raw = generateKey();
    expect(parseMasterKey(raw.toString('base64'), 'X').key.equals(raw)).toBe(true);
    expect(parseMasterKey(raw.toString('hex'), 'X').key.equals(raw)).toBe(true);
    for (const bad of ['', 'short', raw.subarray(0, 16).toString('base64'), `${raw.toString('hex')}00`]) {
      expect(() => parseMasterKey(bad, 'BASALT_MASTER_KEY')).toThrow(/BASALT_MASTER_KEY must be 32 random bytes/);
    }
  });

  it('unwraps with the key that wrapped, the previous one during a rotation, and explains a missing one', () => {
    const oldKey = generateKey().toString('base64');
    const newKey = generateKey().toString('base64');
    const dataKey = generateKey();
    const before = loadKeyring({ masterKey: oldKey, previousMasterKey: null, dataDir: '/nonexistent' });
    const { wrapped, masterKeyId } = before.wrap(dataKey, 'acct');
    const rotating = loadKeyring({ masterKey: newKey, previousMasterKey: oldKey, dataDir: '/nonexistent' });
    expect(rotating.unwrap(wrapped, masterKeyId, 'acct').equals(dataKey)).toBe(true);
    const after = loadKeyring({ masterKey: newKey, previousMasterKey: null, dataDir: '/nonexistent' });
    expect(() => after.unwrap(wrapped, masterKeyId, 'acct')).toThrow(MasterKeyError);
    expect(() => before.unwrap(wrapped, masterKeyId, 'another account')).toThrow(/damaged/);
  });
});
