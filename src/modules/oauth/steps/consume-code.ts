import type { EntityManager } from 'typeorm';
import type { EventsService } from '../../events/events.service';
import { OAuthError } from '../oauth-error';
import { hashToken } from '../opaque-token';

export interface ConsumedCode {
  id: string;
  applicationId: number;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string;
  expiresAt: Date;
}

interface CodeRow {
  id: string;
  application_id: number;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  scope: string;
  expires_at: Date;
}

/**
 * Redeems a code with one atomic UPDATE: of concurrent redemptions exactly one sees the row
 * unconsumed. A code seen consumed is a replay (RFC 6749 section 4.1.2): every token issued
 * from it is revoked, then the request fails with invalid_grant.
 */
export async function consumeCode(
  manager: EntityManager,
  code: string,
  now: Date,
  events: EventsService,
): Promise<ConsumedCode | OAuthError> {
  const codeHash = hashToken(code);
  const [rows] = (await manager.query(
    `UPDATE oauth_codes SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL
     RETURNING id, application_id, user_id, redirect_uri, code_challenge, scope, expires_at`,
    [codeHash, now],
  )) as [CodeRow[], number];
  const row = rows[0];
  if (row) {
    return {
      id: String(row.id),
      applicationId: row.application_id,
      userId: String(row.user_id),
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      scope: row.scope,
      expiresAt: new Date(row.expires_at),
    };
  }
  const spent = (await manager.query(
    'SELECT id, application_id, user_id, scope FROM oauth_codes WHERE code_hash = $1',
    [codeHash],
  )) as CodeRow[];
  if (spent[0]) await revokeCodeTokens(manager, spent[0], now, events);
  return new OAuthError(
    'invalid_grant',
    'The authorization code is invalid, expired or already used',
  );
}

async function revokeCodeTokens(
  manager: EntityManager,
  code: CodeRow,
  now: Date,
  events: EventsService,
): Promise<void> {
  const [, revoked] = (await manager.query(
    'UPDATE oauth_tokens SET revoked_at = $2 WHERE code_id = $1 AND revoked_at IS NULL',
    [code.id, now],
  )) as [unknown, number];
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: code.application_id,
    userId: String(code.user_id),
    eventType: 'token_revoked',
    scope: code.scope,
    description: `authorization code reused: ${revoked} token(s) revoked`,
  });
}
