/**
 * The statements of `oauth_tokens` that other modules compose into their own single statement
 * (the token endpoint issues, rotates and records its event in one round trip). The column list
 * and the table's name are written here and nowhere else; each field is an SQL expression (a
 * parameter, a literal or a column of `from`).
 */
export interface TokenColumns {
  applicationId: string;
  userId: string;
  accessHash: string;
  refreshHash: string;
  scope: string;
  accessExpiresAt: string;
  refreshExpiresAt: string;
  familyId: string;
  codeId: string;
  parentId: string;
  /** 0 for a code's tokens, the parent's + 1 for a refresh's (supersededTokenSql). */
  generation: string;
  createdAt: string;
  /** The DPoP key thumbprint the access token is bound to (NULL: a bearer token). */
  dpopJkt: string;
  /** The DPoP key thumbprint the refresh token is bound to (a public client's; else NULL). */
  refreshDpopJkt: string;
}

/** `INSERT INTO oauth_tokens … VALUES (…)`, or `… SELECT … <from>` when `from` is given. */
export function insertTokenSql(c: TokenColumns, from?: string): string {
  const values = [
    c.applicationId,
    c.userId,
    c.accessHash,
    c.refreshHash,
    c.scope,
    c.accessExpiresAt,
    c.refreshExpiresAt,
    c.familyId,
    c.codeId,
    c.parentId,
    c.generation,
    c.createdAt,
    c.dpopJkt,
    c.refreshDpopJkt,
  ].join(', ');
  const source = from === undefined ? `VALUES (${values})` : `SELECT ${values} ${from}`;
  return `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
      access_expires_at, refresh_expires_at, family_id, code_id, parent_id, generation, created_at,
      dpop_jkt, refresh_dpop_jkt)
    ${source}`;
}

/** The columns a refresh reads from the presented token, aliased `t`. */
export const REFRESH_TOKEN_COLUMNS =
  't.id, t.application_id, t.user_id, t.scope, t.family_id, t.code_id, t.generation';

/**
 * Whether refresh token `t` is superseded by another branch of its family (RFC 9700 section
 * 4.14.2). A token reused within the reuse interval gets a second successor: two tokens of one
 * generation, two branches. `t`'s family holds a token of a later generation that is
 * - created before `reuseSince` (now minus the interval; `now` when reuse is off): some branch
 *   moved on longer ago than the interval (this includes `t`'s own successor: a plain replay); or
 * - created more than the interval after `t` itself while `t` was never rotated: another branch
 *   rotated after the interval that allowed the fork, so `t`'s branch is no longer the family's.
 * Only later generations count (`idx_oauth_tokens_family_generation`): a live head has none.
 */
export const supersededTokenSql = (q: { reuseSince: string; now: string }): string => {
  const since = `COALESCE(${q.reuseSince}::timestamptz, ${q.now}::timestamptz)`;
  return `EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < ${since}
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + (${q.now}::timestamptz - ${since}))))`;
};

/**
 * Marks the refresh token with hash `refreshHash` rotated at `now` when `where` holds, joining
 * `from`; the token is aliased `t`. The caller's conditions decide; this owns the UPDATE. A token
 * already rotated keeps its first rotated_at (a reuse within the interval cannot extend it).
 */
export function rotateTokenSql(q: {
  refreshHash: string;
  now: string;
  from: string;
  where: string;
  returning: string;
}): string {
  return `UPDATE oauth_tokens t SET rotated_at = COALESCE(t.rotated_at, ${q.now})
     FROM ${q.from}
     WHERE t.refresh_token_hash = ${q.refreshHash} AND ${q.where}
     RETURNING ${q.returning}`;
}

/**
 * Marks token `id` rotated at `now`, unless it already was (the step-by-step refresh, which
 * issues in a second statement).
 */
export const markRotatedSql = (id: string, now: string): string =>
  `UPDATE oauth_tokens SET rotated_at = COALESCE(rotated_at, ${now}) WHERE id = ${id}`;

/**
 * The refresh token with hash `refreshHash`, aliased `t`, locked for the transaction, with
 * `select` and `join` of the caller (the step-by-step refresh names the failing rule from it).
 */
export function lockByRefreshHashSql(q: {
  refreshHash: string;
  select: string;
  join: string;
}): string {
  return `SELECT ${q.select} FROM oauth_tokens t ${q.join}
     WHERE t.refresh_token_hash = ${q.refreshHash} FOR UPDATE OF t`;
}

/** The two tokens a row of `oauth_tokens` holds. */
export type TokenKind = 'access' | 'refresh';

/** The column holding the expiry of each kind of token. */
export const TOKEN_EXPIRY_COLUMN: Readonly<Record<TokenKind, string>> = {
  access: 'access_expires_at',
  refresh: 'refresh_expires_at',
};

/**
 * Row `t` holds the `kind` token with hash `hash`, and that token is still usable at `now`: not
 * revoked, not expired and, for a refresh token, neither rotated out nor superseded by another
 * branch of its family (RFC 9700 section 4.14.2: only the latest refresh token of a family is
 * live; the reuse interval is the token endpoint's grace, not a second live token).
 * Introspection's `active` (RFC 7662 section 2.2).
 */
export function usableTokenSql(kind: TokenKind, q: { hash: string; now: string }): string {
  return kind === 'access'
    ? `t.access_token_hash = ${q.hash} AND t.revoked_at IS NULL AND t.access_expires_at > ${q.now}`
    : `t.refresh_token_hash = ${q.hash} AND t.revoked_at IS NULL AND t.rotated_at IS NULL
       AND t.refresh_expires_at > ${q.now} AND NOT ${supersededTokenSql({ reuseSince: q.now, now: q.now })}`;
}
