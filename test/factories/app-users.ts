import type { ApiScope } from '../../src/modules/keys/scopes';
import { createApiKey, createApplication } from './';
import type { TestApp } from '../support/test-app';

export interface RelationInput {
  group?: string;
  enabled?: boolean;
  grantedScope?: string | null;
  authCount?: number;
  firstAuthAt?: Date | null;
  lastAuthAt?: Date | null;
}

/**
 * Relates a user to an application the way a completed authorization leaves it. Written with
 * SQL because the OAuth flow that normally creates relations is another feature.
 */
export async function relate(
  t: TestApp,
  applicationId: number,
  userId: string,
  input: RelationInput = {},
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO app_users (application_id, user_id, "group", enabled, granted_scope, auth_count,
                            first_auth_at, last_auth_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      applicationId,
      userId,
      input.group ?? 't0',
      input.enabled ?? true,
      input.grantedScope === undefined ? 'openid profile' : input.grantedScope,
      input.authCount ?? 1,
      input.firstAuthAt ?? null,
      input.lastAuthAt ?? null,
    ],
  );
}

let tokenSeq = 0;
/** Inserts a live token row (hashes are placeholders: these tests never present tokens). */
export async function insertToken(
  t: TestApp,
  applicationId: number,
  userId: string,
  scope = 'openid profile',
  revokedAt: Date | null = null,
): Promise<string> {
  tokenSeq += 1;
  const [row] = await t.dataSource.query<{ id: string }[]>(
    `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash,
                               scope, access_expires_at, refresh_expires_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING id::text AS id`,
    [
      applicationId,
      userId,
      `a${tokenSeq}`.padEnd(64, '0'),
      `r${tokenSeq}`.padEnd(64, '0'),
      scope,
      new Date(t.clock.now().getTime() + 3_600_000),
      revokedAt,
    ],
  );
  return row.id;
}

export const bearer = (key: string): [string, string] => ['Authorization', `Bearer ${key}`];

export interface TwoApplications {
  appA: number;
  appB: number;
  keyA: string;
  keyB: string;
}

/** Applications A and B, each with one key of the given scopes: the isolation fixture. */
export async function twoApplications(t: TestApp, scopes: ApiScope[]): Promise<TwoApplications> {
  const appA = (await createApplication(t.app, { name: 'A' })).application.id;
  const appB = (await createApplication(t.app, { name: 'B' })).application.id;
  const keyA = (await createApiKey(t.app, appA, scopes)).plaintext;
  const keyB = (await createApiKey(t.app, appB, scopes)).plaintext;
  return { appA, appB, keyA, keyB };
}
