/**
 * A PostgreSQL adapter for oidc-provider, following its documented adapter interface (upsert,
 * find, findByUserCode, findByUid, consume, destroy, revokeByGrantId): one table for every
 * model, as the community's SQL adapters do, with the payload as jsonb, its expiry, and indexes
 * on grant id (revokeByGrantId), uid and user code. `pg` Pool, one autocommitted statement per
 * call, so every write is committed (synchronous_commit=on, a logged table) before the provider
 * answers — the durability the identity service gives its codes and tokens. Named prepared
 * statements, as the identity service uses on its token path.
 */
import { Pool } from 'pg';

// The model names oidc-provider 9 hands to adapters; a smallint per name keeps the key short.
const MODELS = [
  'Session',
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'ClientCredentials',
  'Client',
  'InitialAccessToken',
  'RegistrationAccessToken',
  'Interaction',
  'ReplayDetection',
  'PushedAuthorizationRequest',
  'Grant',
  'BackchannelAuthenticationRequest',
];

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS oidc_payloads (
    id text NOT NULL,
    type smallint NOT NULL,
    payload jsonb NOT NULL,
    grant_id text,
    user_code text,
    uid text,
    expires_at timestamptz,
    consumed_at timestamptz,
    PRIMARY KEY (id, type)
  );
  CREATE INDEX IF NOT EXISTS oidc_payloads_grant_id ON oidc_payloads (grant_id);
  CREATE INDEX IF NOT EXISTS oidc_payloads_uid ON oidc_payloads (uid) WHERE uid IS NOT NULL;
  CREATE INDEX IF NOT EXISTS oidc_payloads_user_code ON oidc_payloads (user_code)
    WHERE user_code IS NOT NULL;`;

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

const LIVE = '(expires_at IS NULL OR expires_at > now())';
const SELECT = `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed FROM oidc_payloads`;

export class PgAdapter {
  private readonly type: number;

  constructor(
    private readonly pool: Pool,
    model: string,
  ) {
    this.type = MODELS.indexOf(model) + 1;
    if (this.type === 0) throw new Error(`unknown oidc-provider model ${model}`);
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    await this.pool.query({
      name: 'oidc-upsert',
      text: `INSERT INTO oidc_payloads (id, type, payload, grant_id, user_code, uid, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 second')
             ON CONFLICT (id, type) DO UPDATE SET payload = excluded.payload,
               grant_id = excluded.grant_id, user_code = excluded.user_code,
               uid = excluded.uid, expires_at = excluded.expires_at`,
      values: [
        id,
        this.type,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.userCode ?? null,
        payload.uid ?? null,
        expiresIn ?? null,
      ],
    });
  }

  find(id: string): Promise<Payload | undefined> {
    return this.one('oidc-find', `${SELECT} WHERE id = $1 AND type = $2 AND ${LIVE}`, id);
  }

  findByUid(uid: string): Promise<Payload | undefined> {
    return this.one('oidc-find-uid', `${SELECT} WHERE uid = $1 AND type = $2 AND ${LIVE}`, uid);
  }

  findByUserCode(userCode: string): Promise<Payload | undefined> {
    const text = `${SELECT} WHERE user_code = $1 AND type = $2 AND ${LIVE}`;
    return this.one('oidc-find-user-code', text, userCode);
  }

  async consume(id: string): Promise<void> {
    await this.pool.query({
      name: 'oidc-consume',
      text: 'UPDATE oidc_payloads SET consumed_at = now() WHERE id = $1 AND type = $2',
      values: [id, this.type],
    });
  }

  async destroy(id: string): Promise<void> {
    await this.pool.query({
      name: 'oidc-destroy',
      text: 'DELETE FROM oidc_payloads WHERE id = $1 AND type = $2',
      values: [id, this.type],
    });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.pool.query({
      name: 'oidc-revoke-grant',
      text: 'DELETE FROM oidc_payloads WHERE grant_id = $1',
      values: [grantId],
    });
  }

  private async one(name: string, text: string, key: string): Promise<Payload | undefined> {
    const { rows } = await this.pool.query<{ payload: Payload; consumed: string | null }>({
      name,
      text,
      values: [key, this.type],
    });
    if (rows.length === 0) return undefined;
    const { payload, consumed } = rows[0];
    // The interface's `consumed`: a truthy value once consume() ran (MemoryAdapter: epoch seconds).
    return consumed === null ? payload : { ...payload, consumed: Number(consumed) };
  }
}
