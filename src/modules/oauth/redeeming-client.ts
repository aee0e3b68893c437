import { publicClientIdSql } from '../applications/client-sql';

/**
 * The client presenting a code or refresh token to the one-statement paths: one already
 * authenticated by its secret (its application id), or a public client named by its client_id
 * alone, which the statement itself checks is registered as `none` and enabled (spec section 5).
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
 * The statements' `cl` CTE, with the client in parameter `:client`: one row, the client's
 * application id, or no row for an unknown, confidential or disabled public client (then nothing
 * changes).
 */
export const CLIENT_CTE: Record<ClientKind, string> = {
  authenticated: 'cl AS (SELECT :client::int AS id)',
  public: `cl AS (${publicClientIdSql(':client')})`,
};
