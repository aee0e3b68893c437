/**
 * What the purge job deletes, table by table. Each statement deletes at most $2 rows that are
 * no longer needed at time $1, and answers the count as `n`.
 */

import { SIGN_IN_RETENTION_DAYS } from '../sessions/sign-in.entity';

/** Consumed codes are kept this long after expiry, so a late replay still revokes its tokens. */
export const CODE_REPLAY_RETENTION_SECONDS = 86400;

export type PurgeTarget =
  | 'codes'
  | 'sessions'
  | 'spentRequests'
  | 'pushedRequests'
  | 'deviceCodes'
  | 'clientAssertions'
  | 'dpopProofs'
  | 'tokens'
  | 'passkeyCeremonies'
  | 'passkeyConfirmations'
  | 'signingKeys'
  | 'oneTimeCodes'
  | 'signIns'
  | 'backchannelLogouts';

/** Back-channel logouts that are over (delivered, refused, abandoned) stay this long, for the console. */
export const BACKCHANNEL_LOGOUT_RETENTION_DAYS = 7;

const deleteWhere = (table: string, condition: string): string =>
  `WITH gone AS (DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${condition} LIMIT $2) RETURNING 1)
   SELECT count(*)::int AS n FROM gone`;

export const PURGE_TARGETS: readonly { name: PurgeTarget; sql: string }[] = [
  {
    // RFC 6749 section 4.1.2: a replayed code should revoke what it produced, so codes outlive
    // their lifetime by a day; after that a replay is just an unknown code (invalid_grant).
    name: 'codes',
    // An OpenID Connect code stays while its family can still refresh: the refreshed id_tokens
    // repeat its auth_time (OIDC Core 12.2; docs/oidc.md).
    sql: deleteWhere(
      'oauth_codes',
      `expires_at < $1::timestamptz - interval '${CODE_REPLAY_RETENTION_SECONDS} seconds'
       AND NOT (auth_time IS NOT NULL AND position('openid' in scope) > 0 AND EXISTS (
         SELECT 1 FROM oauth_tokens t WHERE t.code_id = oauth_codes.id AND t.refresh_expires_at > $1))`,
    ),
  },
  { name: 'sessions', sql: deleteWhere('oauth_sessions', 'expires_at < $1') },
  // A spent request can no longer be presented once its sealed form has expired.
  {
    name: 'spentRequests',
    sql: deleteWhere('oauth_spent_authorization_requests', 'expires_at < $1'),
  },
  // A pushed authorization request is refused at /authorize once expired (RFC 9126 section 4);
  // a used one is deleted when used.
  {
    name: 'pushedRequests',
    sql: deleteWhere('oauth_pushed_authorization_requests', 'expires_at < $1'),
  },
  // A device code (RFC 8628) answers expired_token once past its lifetime, whatever its state;
  // the tokens it gave keep their family's origin in oauth_codes, not here.
  { name: 'deviceCodes', sql: deleteWhere('oauth_device_codes', 'expires_at < $1') },
  // A used client assertion (private_key_jwt) can no longer be presented once it has expired.
  {
    name: 'clientAssertions',
    sql: deleteWhere('oauth_client_assertion_jtis', 'expires_at < $1'),
  },
  // A used DPoP proof can no longer be presented once its iat is out of the window.
  {
    name: 'dpopProofs',
    sql: deleteWhere('oauth_dpop_proof_jtis', 'expires_at < $1'),
  },
  {
    // A row holds an access token and its refresh token. It goes when both have expired: a
    // revoked or rotated refresh token that has not expired is kept, because presenting it again
    // must still be recognised as a replay and revoke its family (RFC 9700 section 4.14.2).
    name: 'tokens',
    sql: deleteWhere(
      'oauth_tokens',
      'access_expires_at < $1 AND (refresh_expires_at IS NULL OR refresh_expires_at < $1)',
    ),
  },
  // Passkey challenges and confirmation tokens (docs/console.md): once expired, neither can be
  // presented again, spent or not; nothing refers to them.
  { name: 'passkeyCeremonies', sql: deleteWhere('passkey_ceremonies', 'expires_at < $1') },
  {
    name: 'passkeyConfirmations',
    sql: deleteWhere('passkey_confirmations', 'expires_at < $1'),
  },
  {
    // A retired signing key is published until every id_token it signed has expired
    // (published_until, set by signing-keys at rotation); from then on it is unpublished and
    // nothing verifies with it (signing-key-view.ts isPublished).
    name: 'signingKeys',
    sql: deleteWhere('signing_keys', `state = 'retired' AND published_until <= $1`),
  },
  // Emailed one-time codes (docs/accounts.md): once expired, spent or not, nothing accepts them.
  { name: 'oneTimeCodes', sql: deleteWhere('one_time_codes', 'expires_at < $1') },
  {
    // The account page's "Recent sign-ins" look back 90 days (docs/accounts.md); older records
    // of where and how an account signed in are not kept.
    name: 'signIns',
    sql: deleteWhere(
      'sign_ins',
      `created_at < $1::timestamptz - interval '${SIGN_IN_RETENTION_DAYS} days'`,
    ),
  },
  {
    // The console lists how each back-channel logout went (docs/oidc.md); a week after a logout
    // was queued, a final one is no longer shown. A pending one stays until it is final.
    name: 'backchannelLogouts',
    sql: deleteWhere(
      'backchannel_logouts',
      `status <> 'pending' AND created_at < $1::timestamptz - interval '${BACKCHANNEL_LOGOUT_RETENTION_DAYS} days'`,
    ),
  },
];
