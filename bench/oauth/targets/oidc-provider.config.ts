/**
 * oidc-provider's configuration for the benchmark, the same for both storages: a public PKCE
 * client (exchanges, refreshes) as on our side, a confidential resource-server client with
 * client_secret_basic introspecting its own tokens (RFC 7662), opaque access tokens, refresh tokens issued
 * and rotated, no ID token on the token path (no `openid` scope there; ours issues none either).
 */
import type { Pool } from 'pg';

/** The part of oidc-provider's API the benchmark touches. */
export interface Provider {
  callback(): (req: unknown, res: unknown) => Promise<void>;
  Client: { find(id: string): Promise<unknown> };
  Grant: new (args: object) => {
    addResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
  AuthorizationCode: new (args: object) => { save(): Promise<string> };
  AccessToken: new (args: object) => { save(): Promise<string> };
}

export interface Account {
  id: string;
  username: string;
  nickname: string;
  email: string;
  avatar: string;
}

const ACCOUNTS = 100;

/**
 * The accounts findAccount answers from: in memory for the in-memory target; for the PostgreSQL
 * target a table in its database, read by primary key on every findAccount (oidc-provider calls
 * it on each exchange, refresh and userinfo request), as a deployment keeps its users there.
 */
export async function accountStore(pool: Pool | undefined): Promise<Account[]> {
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
    id: `user${i}`,
    username: `bench${i}`,
    nickname: `Bench user ${i}`,
    email: `bench${i}@example.org`,
    avatar: `https://avatars.example.org/bench${i}.png`,
  }));
  if (pool) {
    await pool.query(`CREATE TABLE IF NOT EXISTS accounts (id text PRIMARY KEY,
      username text NOT NULL, nickname text NOT NULL, email text NOT NULL, avatar text NOT NULL)`);
    await pool.query(
      `INSERT INTO accounts SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT DO NOTHING`,
      (['id', 'username', 'nickname', 'email', 'avatar'] as const).map((k) =>
        accounts.map((a) => a[k]),
      ),
    );
  }
  return accounts;
}

function findAccount(pool: Pool | undefined, accounts: Account[]) {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const load = async (id: string): Promise<Account | undefined> => {
    if (!pool) return byId.get(id);
    const { rows } = await pool.query<Account>({
      name: 'account-find',
      text: 'SELECT id, username, nickname, email, avatar FROM accounts WHERE id = $1',
      values: [id],
    });
    return rows[0];
  };
  return async (_ctx: unknown, id: string) => {
    const account = await load(id);
    if (!account) return undefined;
    return {
      accountId: id,
      claims: () => ({
        sub: id,
        preferred_username: account.username,
        nickname: account.nickname,
        email: account.email,
        picture: account.avatar,
      }),
    };
  };
}

export function providerConfig(
  adapter: (model: string) => unknown,
  accounts: Account[],
  pool: Pool | undefined,
): object {
  return {
    clients: [
      {
        client_id: 'bench',
        token_endpoint_auth_method: 'none',
        redirect_uris: [process.env.BENCH_REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      {
        client_id: 'bench-rs',
        client_secret: process.env.BENCH_RS_SECRET,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
    ],
    findAccount: findAccount(pool, accounts),
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'nickname', 'picture'],
      email: ['email'],
    },
    features: {
      devInteractions: { enabled: false },
      // RFC 7662 with our policy (docs/performance/oauth.md): a client introspects only the
      // tokens issued to itself; another client's token is {active: false}.
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:bench',
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'read',
          accessTokenFormat: 'opaque',
          accessTokenTTL: 3600,
        }),
      },
    },
    adapter,
    issueRefreshToken: () => true,
    rotateRefreshToken: true,
    scopes: ['openid', 'read', 'profile', 'email'],
  };
}
