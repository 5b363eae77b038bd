import { createCipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { generateKey } from '../../lib/crypto/envelope.js';
import { loadKeyring, purposeKey } from '../../lib/crypto/master-key.js';
import { signUpUser, users } from '../../testing/auth.fixtures.js';
import { createTestProject } from '../../testing/sql.fixtures.js';
import { createPostgresTarget } from '../../testing/sql-targets.fixtures.js';
import { startTestServer } from '../../testing/test-server.js';
import { ConnectionSecretError, openConnectionSecret, sealConnectionSecret } from './connection-secrets.js';

// A connection's credentials are sealed by the instance's keyring, as secrets are: bound to their project, and
// still readable after the documented master key rotation (new key in BASALT_MASTER_KEY, old one in
// BASALT_PREVIOUS_MASTER_KEY, then the old one removed).

const keyringOf = (masterKey: string, previousMasterKey: string | null = null) =>
  loadKeyring({ masterKey, previousMasterKey, dataDir: '/nonexistent' });
const newKey = () => generateKey().toString('base64');

describe('connection secrets', () => {
  it('seals and opens a secret for its project only, never holding the plaintext', () => {
    const keyring = keyringOf(newKey());
    const text = '{"connectionString":"postgres://u:pw@h/db"}';
    const sealed = sealConnectionSecret(keyring, text, 'p1');
    expect(sealed).not.toContain('pw@h');
    expect(sealed).not.toBe(sealConnectionSecret(keyring, text, 'p1'));
    expect(openConnectionSecret(keyring, sealed, 'p1')).toBe(text);
    expect(() => openConnectionSecret(keyring, sealed, 'p2')).toThrow(ConnectionSecretError);
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => openConnectionSecret(keyring, altered, 'p1')).toThrow(ConnectionSecretError);
  });

  it('opens what the previous master key sealed during a rotation, and nothing of an unknown key', () => {
    const oldKey = newKey();
    const sealed = sealConnectionSecret(keyringOf(oldKey), 'secret', 'p');
    const rotated = keyringOf(newKey(), oldKey);
    expect(openConnectionSecret(rotated, sealed, 'p')).toBe('secret');
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.isCurrent(sealConnectionSecret(rotated, 'secret', 'p'))).toBe(true);
    expect(() => openConnectionSecret(keyringOf(newKey()), sealed, 'p')).toThrow(/another master key/);
  });

  it('opens the format connections were stored in before the keyring sealed them', () => {
    const master = newKey();
    const keyring = keyringOf(master);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', purposeKey(keyring.current.key, 'basalt sql connection secrets'), iv);
    cipher.setAAD(Buffer.from('project:p'));
    const body = Buffer.concat([cipher.update('old secret', 'utf8'), cipher.final()]);
    const legacy = ['v1', keyring.current.id, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    expect(openConnectionSecret(keyring, legacy, 'p')).toBe('old secret');
    expect(() => openConnectionSecret(keyring, legacy, 'q')).toThrow(ConnectionSecretError);
  });
});

describe('connections and secrets across a master key rotation', () => {
  it('keep working after the rotation, and are sealed under the new key at start', async () => {
    const target = await createPostgresTarget();
    const oldKey = newKey();
    const rotatedKey = newKey();
    const first = await startTestServer('sqlite', { masterKey: oldKey, authRateLimit: 1000 });
    try {
      const alice = await signUpUser(first, users.alice);
      const headers = { authorization: `Bearer ${alice.accessToken}` };
      const projectId = await createTestProject(first, alice.id);
      const { host, port, database, user } = target.endpoint;
      const created = await first.request('POST', `/api/projects/${projectId}/database-connections`, {
        headers,
        json: {
          name: 'Rotated',
          provider: 'CUSTOM',
          engine: 'POSTGRESQL',
          connectionString: `postgres://${user}@${host}:${port}/${database}`,
        },
      });
      expect(created.status).toBe(201);
      const secret = await first.request('POST', '/api/secrets', { headers, json: { name: 'ROTATED', value: 'v' } });
      expect(secret.status).toBe(201);
      await first.app.close();

      // The documented rotation: the new key with the old one as previous, then the new one alone.
      const rotating = await buildApp({ ...first.config, masterKey: rotatedKey, previousMasterKey: oldKey });
      await rotating.close();
      const after = await buildApp({ ...first.config, masterKey: rotatedKey, previousMasterKey: null });
      try {
        await after.listen({ port: 0, host: '127.0.0.1' });
        const address = after.server.address();
        const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        const tested = await fetch(`${url}/api/projects/${projectId}/database-connections/${created.body.id}/test`, {
          method: 'POST',
          headers,
        });
        expect({ status: tested.status, success: (await tested.json()).success }).toEqual({
          status: 200,
          success: true,
        });
        const value = await fetch(`${url}/api/secrets/${secret.body.id}/value`, { headers });
        expect(await value.json()).toEqual({ value: 'v' });
      } finally {
        await after.close();
      }
    } finally {
      await target.drop();
      await fs.promises.rm(first.config.dataDir, { recursive: true, force: true });
    }
  });
});
