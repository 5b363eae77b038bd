import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConnectionSecretError,
  loadSecretKey,
  openConnectionSecret,
  sealConnectionSecret,
} from './connection-secrets.js';

describe('connection secrets', () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-secrets-'));

  it('seals and opens a secret for its project only, never holding the plaintext', () => {
    const key = loadSecretKey({ masterKey: null, dataDir: dataDir() });
    const sealed = sealConnectionSecret(key, '{"connectionString":"postgres://u:pw@h/db"}', 'p1');
    expect(sealed).not.toContain('pw@h');
    expect(sealed).not.toBe(sealConnectionSecret(key, '{"connectionString":"postgres://u:pw@h/db"}', 'p1'));
    expect(openConnectionSecret(key, sealed, 'p1')).toBe('{"connectionString":"postgres://u:pw@h/db"}');
    expect(() => openConnectionSecret(key, sealed, 'p2')).toThrow(ConnectionSecretError);
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => openConnectionSecret(key, altered, 'p1')).toThrow(ConnectionSecretError);
  });

  it('generates master.key once with mode 0600 and reads it again', () => {
    const dir = dataDir();
    const first = loadSecretKey({ masterKey: null, dataDir: dir });
    const file = path.join(dir, 'master.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadSecretKey({ masterKey: null, dataDir: dir });
    expect(again.key.equals(first.key)).toBe(true);
    // The derived key is not the master key itself.
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64').equals(first.key)).toBe(false);
  });

  it('takes BASALT_MASTER_KEY as base64 or hex, refuses anything else, and knows a value of another key', () => {
    const hex = 'ab'.repeat(32);
    const fromHex = loadSecretKey({ masterKey: hex, dataDir: dataDir() });
    const fromBase64 = loadSecretKey({ masterKey: Buffer.from(hex, 'hex').toString('base64'), dataDir: dataDir() });
    expect(fromHex.key.equals(fromBase64.key)).toBe(true);
    expect(() => loadSecretKey({ masterKey: 'short', dataDir: dataDir() })).toThrow(/32 random bytes/);
    const other = loadSecretKey({ masterKey: 'cd'.repeat(32), dataDir: dataDir() });
    expect(() => openConnectionSecret(other, sealConnectionSecret(fromHex, 'x', 'p'), 'p')).toThrow(
      /another master key/,
    );
  });
});
