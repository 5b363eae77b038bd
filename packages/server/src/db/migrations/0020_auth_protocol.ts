import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Users, sessions and mail tokens of both user pools (console accounts and apps' end users, features/auth/
// user-pool.ts) get the rest of GoTrue's protocol: identities (email and OAuth/OIDC providers), MFA factors and
// their challenges, the assurance level of a session, anonymous and invited users, reauthentication codes and the
// flow states of PKCE and OAuth sign-ins. Every new per-user table exists twice with the same columns (the console
// accounts' and the end users'), referencing its users ON DELETE CASCADE, as the sessions already do.

const POOLS = [
  { users: 'accounts', prefix: '' },
  { users: 'app_users', prefix: 'app_' },
] as const;

// The email identity's id is the one Basalt derived before identities were stored (gotrue-user.ts did), so the
// ids apps have seen stay the same.
// A migration keeps its own copy of what it derives: a later change elsewhere must not change what it wrote.
function emailIdentityId(userId: string): string {
  // A UUID-shaped id from the hash (RFC 9562 version-8 layout).
  const hex = createHash('sha256').update(`email-identity:${userId}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const BATCH = 500;

/**
 * authProtocolMigration adds identities, factors, challenges and flow states, and the columns of anonymous and
 * invited users, sessions' assurance levels and PKCE mail links. Existing users with an email get their email
 * identity as a stored row.
 */
export function authProtocolMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
    async up(db: Kysely<any>) {
      for (const { users, prefix } of POOLS) {
        // Anonymous users have no address: their email column holds `anonymous:<id>`, which no validated address
        // can equal (the column is NOT NULL and unique); the API shows "" for it.
        await db.schema
          .alterTable(users)
          .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable(users).addColumn('invited_at', 'text').execute();
        await db.schema.alterTable(users).addColumn('reauthentication_sent_at', 'text').execute();

        const sessions = prefix ? 'app_sessions' : 'auth_sessions';
        await db.schema
          .alterTable(sessions)
          .addColumn('aal', 'text', (c) => c.notNull().defaultTo('aal1'))
          .execute();
        await db.schema.alterTable(sessions).addColumn('factor_id', 'text').execute();
        // A mail link of a PKCE flow leads to `?code=` instead of a session in the fragment.
        await db.schema.alterTable(`${prefix}one_time_tokens`).addColumn('flow_state_id', 'text').execute();

        // Unique within a pool: an app's (the same Google account may use several apps), or the console's ('').
        await db.schema
          .createTable(`${prefix}identities`)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references(`${users}.id`).onDelete('cascade'))
          .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('provider', 'text', (c) => c.notNull())
          // The provider's subject (the user's id for the email identity).
          .addColumn('provider_id', 'text', (c) => c.notNull())
          .addColumn('identity_data', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('email', 'text')
          .addColumn('last_sign_in_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint(`${prefix}identities_provider_key`, ['app_id', 'provider', 'provider_id'])
          .execute();
        await db.schema
          .createIndex(`${prefix}identities_user_idx`)
          .on(`${prefix}identities`)
          .column('account_id')
          .execute();

        await db.schema
          .createTable(`${prefix}mfa_factors`)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references(`${users}.id`).onDelete('cascade'))
          .addColumn('friendly_name', 'text')
          .addColumn('factor_type', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          // The TOTP secret, sealed under the owning account's data key (features/secrets).
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('last_challenged_at', 'text')
          // The last TOTP time step accepted: a code of that step or an earlier one is a replay.
          .addColumn('last_used_step', 'bigint')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint(`${prefix}mfa_factors_name_key`, ['account_id', 'friendly_name'])
          .execute();
        await db.schema
          .createIndex(`${prefix}mfa_factors_user_idx`)
          .on(`${prefix}mfa_factors`)
          .column('account_id')
          .execute();

        await db.schema
          .createTable(`${prefix}mfa_challenges`)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('factor_id', 'text', (c) => c.notNull().references(`${prefix}mfa_factors.id`).onDelete('cascade'))
          .addColumn('ip', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('verified_at', 'text')
          .execute();
        await db.schema
          .createIndex(`${prefix}mfa_challenges_factor_idx`)
          .on(`${prefix}mfa_challenges`)
          .column('factor_id')
          .execute();
      }

      // One table for every pool: an OAuth callback finds its flow by the state alone, before knowing its pool.
      await db.schema
        .createTable('auth_flow_states')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // The app whose users the flow signs in; '' for the console accounts.
        .addColumn('app_ref', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('provider', 'text')
        .addColumn('user_id', 'text')
        .addColumn('link_user_id', 'text')
        .addColumn('code_challenge', 'text')
        .addColumn('code_challenge_method', 'text')
        .addColumn('auth_code_hash', 'text', (c) => c.unique())
        .addColumn('auth_code_issued_at', 'text')
        .addColumn('redirect_to', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text')
        .addColumn('provider_verifier', 'text')
        .addColumn('provider_token', 'text')
        .addColumn('provider_refresh_token', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_flow_states_created_idx').on('auth_flow_states').column('created_at').execute();

      await storeEmailIdentities(db);
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
async function storeEmailIdentities(db: Kysely<any>): Promise<void> {
  for (const { users, prefix } of POOLS) {
    let after = '';
    for (;;) {
      const rows: Array<Record<string, string | null>> = await db
        .selectFrom(users)
        .select(['id', 'email', 'email_confirmed_at', 'last_sign_in_at', 'created_at', 'updated_at'])
        .$if(prefix !== '', (q) => q.select('app_id'))
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      await db
        .insertInto(`${prefix}identities`)
        .values(
          rows.map((row) => ({
            id: emailIdentityId(String(row.id)),
            account_id: row.id,
            provider: 'email',
            provider_id: row.id,
            identity_data: JSON.stringify({
              sub: row.id,
              email: row.email,
              email_verified: row.email_confirmed_at !== null,
              phone_verified: false,
            }),
            email: row.email,
            last_sign_in_at: row.last_sign_in_at,
            created_at: row.created_at,
            updated_at: row.updated_at,
            app_id: prefix ? row.app_id : '',
          })),
        )
        .execute();
      after = String(rows[rows.length - 1]?.id);
    }
  }
}
