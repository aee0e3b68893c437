import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventsService } from '../../events/events.service';
import { sha256Hex } from '../../../common/crypto/hash';
import type { MintedTokens } from '../token-issuer';
import type { RelationState } from './check-relation';
import { preparedQuery } from '../../../database/prepared-query';
import {
  CLIENT_CTE,
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from './redeeming-client';

export interface ConsumedCode extends RelationState {
  id: string;
  applicationId: number;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string;
  expiresAt: Date;
  /** The application id of the client that presented the code. */
  clientApplicationId: number;
  /** Whether the statement also issued the tokens (every binding held). */
  issued: boolean;
}

export interface Redemption {
  code: string;
  client: RedeemingClient;
  redirectUri: string;
  /** BASE64URL(SHA256(code_verifier)), or null when no verifier was sent. */
  verifierHash: string | null;
  tokens: MintedTokens;
}

interface CodeRow {
  id: string;
  application_id: number;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  scope: string;
  expires_at: Date;
  client_application_id: number;
  relation_enabled: boolean | null;
  granted_scope: string | null;
  issued: boolean;
}

const redeemStatement = (kind: ClientKind): string =>
  `WITH ${CLIENT_CTE[kind]},
   c AS (
     UPDATE oauth_codes SET consumed_at = $2
     WHERE code_hash = $1 AND consumed_at IS NULL AND EXISTS (SELECT 1 FROM cl)
     RETURNING id, application_id, user_id, redirect_uri, code_challenge, scope, expires_at),
   r AS (
     SELECT c.*, cl.id AS client_application_id, au.enabled AS relation_enabled, au.granted_scope,
            (c.application_id = cl.id AND c.expires_at > $2 AND c.redirect_uri = $4
             AND c.code_challenge IS NOT DISTINCT FROM $5::varchar AND au.enabled AND au.granted_scope IS NOT NULL) AS ok
     FROM c CROSS JOIN cl LEFT JOIN app_users au ON au.application_id = c.application_id AND au.user_id = c.user_id),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
       access_expires_at, refresh_expires_at, family_id, code_id, created_at)
     SELECT application_id, user_id, $6::varchar, $7::varchar, scope, $8::timestamptz, $9::timestamptz, $10::uuid, id, $2 FROM r WHERE ok
     RETURNING application_id, user_id, scope),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
     SELECT application_id, 'token_issued', 'oauth2', 'success', user_id, scope, '', $2 FROM issued)
   SELECT r.*, EXISTS (SELECT 1 FROM issued) AS issued FROM r`;

const REDEEM: Record<ClientKind, string> = {
  authenticated: redeemStatement('authenticated'),
  public: redeemStatement('public'),
};

/**
 * Redeems a code in ONE statement (atomic on its own, one round trip, prepared once per
 * connection): consume it (of concurrent redemptions exactly one sees it unconsumed, the others
 * wait for its row lock and then find it spent), and only if every binding holds, insert the token
 * pair and the `token_issued` event. The conditions mirror checkCodeBinding, verifyPkce and
 * checkRelation, which name the failure when nothing was issued. A public client that is unknown,
 * not `none` or disabled consumes nothing. Null: nothing was consumed (unknown or spent code, or an
 * unusable public client; the caller then authenticates the client to name the failure).
 */
export async function redeemCode(
  dataSource: DataSource,
  r: Redemption,
): Promise<ConsumedCode | null> {
  const kind = clientKind(r.client);
  const rows = await preparedQuery<CodeRow>(dataSource, `oauth_redeem_code_${kind}`, REDEEM[kind], [
    sha256Hex(r.code),
    r.tokens.now,
    clientParam(r.client),
    r.redirectUri,
    r.verifierHash,
    r.tokens.accessHash,
    r.tokens.refreshHash,
    r.tokens.accessExpiresAt,
    r.tokens.refreshExpiresAt,
    randomUUID(),
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: String(row.id),
    applicationId: row.application_id,
    userId: String(row.user_id),
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scope: row.scope,
    expiresAt: new Date(row.expires_at),
    clientApplicationId: row.client_application_id,
    relationEnabled: row.relation_enabled,
    grantedScope: row.granted_scope,
    issued: row.issued,
  };
}

/**
 * A code presented again after it was consumed (RFC 6749 section 4.1.2): every token issued from
 * it is revoked. Runs after the winning redemption committed (its row lock was waited for).
 */
export async function revokeReplayedCode(
  manager: EntityManager,
  code: string,
  now: Date,
  events: EventsService,
): Promise<void> {
  const spent = await manager.query<CodeRow[]>(
    'SELECT id, application_id, user_id, scope FROM oauth_codes WHERE code_hash = $1',
    [sha256Hex(code)],
  );
  const row = spent[0];
  if (!row) return;
  const [, revoked] = await manager.query<[unknown, number]>(
    'UPDATE oauth_tokens SET revoked_at = $2 WHERE code_id = $1 AND revoked_at IS NULL',
    [row.id, now],
  );
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: row.application_id,
    userId: String(row.user_id),
    eventType: 'token_revoked',
    scope: row.scope,
    description: `authorization code reused: ${revoked} token(s) revoked`,
  });
}
