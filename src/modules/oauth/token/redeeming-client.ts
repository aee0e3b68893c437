import { publicClientIdSql } from '../../applications/client-sql';

/**
 * The client presenting a code or refresh token to the one-statement paths: one already
 * authenticated by its secret (its application id), or a public client named by its client_id
 * alone, which the statement itself checks is registered as `none` and enabled (docs/contract/oauth.md#clients-and-client-authentication).
 */
export type RedeemingClient = { id: number } | { publicClientId: string };

export type ClientKind = 'authenticated' | 'public';

export function clientKind(client: RedeemingClient): ClientKind {
  return 'id' in client ? 'authenticated' : 'public';
}

export function clientParam(client: RedeemingClient): number | string {
  return 'id' in client ? client.id : client.publicClientId;
}

/**
 * The presenting client, with the client in parameter `:client`: one row, the client's
 * application id, or no row for an unknown, confidential or disabled public client (then nothing
 * changes). A public client that requires DPoP (`dpop_bound_access_tokens`) qualifies only with a
 * proof (`:jkt`); without one the general path names the failure. The batch statements evaluate it
 * per item (`CROSS JOIN LATERAL (…) cl`).
 */
export const CLIENT_SQL: Record<ClientKind, string> = {
  authenticated: 'SELECT :client::int AS id',
  public: `${publicClientIdSql(':client')}
      AND (:jkt::text IS NOT NULL OR NOT dpop_bound_access_tokens)`,
};

/** The single-row statements' `cl` CTE (CLIENT_SQL). */
export const CLIENT_CTE: Record<ClientKind, string> = {
  authenticated: `cl AS (${CLIENT_SQL.authenticated})`,
  public: `cl AS (${CLIENT_SQL.public})`,
};
