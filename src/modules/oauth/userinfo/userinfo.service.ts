import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { Metrics } from '../../../common/metrics/metrics';
import { NaturalBatcher, STATEMENT_BATCHING } from '../../../common/sql/natural-batcher';
import { preparedQuery } from '../../../common/sql/prepared-query';
import { statement } from '../../../common/sql/statement';
import { impliedGroups, isGroupCode } from '../../users/groups';
import { OAuthError } from '../protocol/oauth-error';
import { resourceDpopError } from '../dpop/dpop-challenge';
import {
  authorizationOf,
  bindingMismatch,
  invalidToken,
  presentedToken,
  REALM,
  type PresentedToken,
} from './presented-token';
import { DpopService } from '../dpop/dpop.service';
import type { Request } from 'express';
import { sha256Hex } from '../../../common/crypto/hash';
import {
  isOpenId,
  standardClaims,
  userinfoProfileClaims,
  type StandardClaims,
} from '../protocol/oidc-claims';
import {
  EMAILS_SCOPES,
  OAuthScope,
  PROFILE_SCOPES,
  USERINFO_SCOPES,
  scopeAllows,
} from '../protocol/scopes';
import { relationOf, relationUsable } from '../../users/relation-sql';
import type { UserinfoUpstream } from '../../upstreams/identities/userinfo-upstream';
import {
  userinfoUpstreamsJoin,
  userinfoUpstreamsOf,
} from '../../upstreams/identities/userinfo-upstreams-sql';

/** User info (docs/contract/oauth.md#user-info). */
export interface UserInfo {
  id: number;
  username: string;
  nickname: string;
  email: string;
  avatar: string;
  groups: string[];
  upstreams: UserinfoUpstream[];
}

/**
 * User info of a token with `openid` (OIDC Core 5.3.2): `sub` always, the contract's fields (docs/contract/oauth.md#user-info) when the
 * token has `read` or `profile`, and the standard claims its scopes release.
 */
export type OidcUserInfo = Partial<UserInfo> &
  StandardClaims & { sub: string; updated_at?: number };

/** User email entry (docs/contract/oauth.md#user-emails). */
export interface UserEmailEntry {
  email: string;
  verified: boolean;
  primary: boolean;
  visibility: string;
}

export interface TokenOwner {
  scope: string;
  id: string;
  username: string;
  nickname: string;
  email: string;
  avatar: string;
  email_verified: boolean;
  updated_at: Date;
  group: string;
  /** The DPoP key thumbprint the token is bound to (RFC 9449 section 6), or null: a bearer token. */
  dpop_jkt: string | null;
  /** userinfoUpstreamsJoin's column; only in the userinfo statement. */
  upstreams?: Parameters<typeof userinfoUpstreamsOf>[0];
}

/**
 * The owner of the token(s) `tokens` names, checked as authenticate() says; `join` adds columns
 * from another table (userinfo: the bound upstream identities, so the endpoint is one round trip).
 */
const ownerSql = (
  columns: string,
  join: string,
  tokens = 't.access_token_hash = :tokenHash',
): string =>
  `SELECT t.scope, u.id, u.username, u.nickname, u.email, u.avatar, u.email_verified, u.updated_at,
     au."group", t.dpop_jkt${columns}
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON ${relationOf('au', 't')} AND ${relationUsable('au')}
   ${join}
   WHERE ${tokens} AND t.revoked_at IS NULL AND t.access_expires_at > :now`;

const UPSTREAMS = [', up.upstreams', userinfoUpstreamsJoin('up', 't.user_id')] as const;

/** The single-token statements' parameters (bound by name, src/common/sql/statement.ts). */
const ONE_TOKEN = ['tokenHash', 'now'] as const;

/** Named prepared statements (src/common/sql/prepared-query.ts): parsed and planned once per connection. */
export const USERINFO = {
  name: 'userinfo-owner-upstreams',
  ...statement(ownerSql(...UPSTREAMS), ONE_TOKEN),
};
/** USERINFO for several tokens at once: each owner row names its token's hash. */
export const USERINFO_BATCH = {
  name: 'userinfo-owners-upstreams',
  ...statement(
    ownerSql(
      `${UPSTREAMS[0]}, t.access_token_hash AS token_hash`,
      UPSTREAMS[1],
      't.access_token_hash = ANY(:tokenHashes::varchar[])',
    ),
    ['tokenHashes', 'now'],
  ),
};
export const OWNER = { name: 'userinfo-owner', ...statement(ownerSql('', ''), ONE_TOKEN) };

/**
 * The owners of several tokens in one statement, in the order of `tokenHashes` (null where a token
 * is unknown, expired, revoked or no longer usable), as USERINFO would find each one at `now`.
 */
export async function userinfoOwners(
  dataSource: DataSource,
  tokenHashes: readonly string[],
  now: Date,
): Promise<(TokenOwner | null)[]> {
  const rows = await preparedQuery<TokenOwner & { token_hash: string }>(
    dataSource,
    USERINFO_BATCH.name,
    USERINFO_BATCH.text,
    USERINFO_BATCH.values({ tokenHashes: [...new Set(tokenHashes)], now }),
  );
  const byHash = new Map(rows.map(({ token_hash, ...owner }) => [token_hash, owner]));
  return tokenHashes.map((hash) => byHash.get(hash) ?? null);
}

/** GET /api/oauth2/userinfo and /api/oauth2/user/emails: bearer access tokens (RFC 6750). */
@Injectable()
export class UserinfoService {
  /**
   * Userinfo lookups that arrive in one turn of the event loop, or while earlier ones are
   * running, go together as one statement (src/common/sql/natural-batcher.ts): resource servers
   * call userinfo on every request, and one round trip for several saves both processes the
   * per-statement work. A lone request runs the single statement in the turn it arrived in.
   * Reads commit nothing, so a batch may carry a token several times.
   */
  private readonly lookups: NaturalBatcher<string, TokenOwner | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(Metrics) metrics: Metrics,
    private readonly dpop: DpopService,
  ) {
    this.lookups = new NaturalBatcher<string, TokenOwner | null>({
      ...STATEMENT_BATCHING,
      onBatch: metrics.batchSizes('userinfo_lookup'),
      runOne: (tokenHash) => this.ownerOf(USERINFO, tokenHash),
      runBatch: (tokenHashes) => userinfoOwners(dataSource, tokenHashes, clock.now()),
    });
  }

  /**
   * `formToken`: the `access_token` form parameter of a POST (RFC 6750 section 2.2), undefined
   * for a GET or a POST without one.
   */
  async userinfo(req: Request, formToken?: string): Promise<UserInfo | OidcUserInfo> {
    // The challenge keeps naming read and profile, as before openid existed (docs/oidc.md).
    const owner = await this.authenticate(
      (tokenHash) => this.lookups.run(tokenHash),
      req,
      presentedToken(authorizationOf(req), formToken),
      USERINFO_SCOPES,
      PROFILE_SCOPES,
    );
    if (!isOpenId(owner.scope)) return this.specFields(owner);
    const spec = scopeAllows(owner.scope, PROFILE_SCOPES) ? this.specFields(owner) : {};
    return {
      sub: owner.id,
      ...spec,
      ...standardClaims(owner.scope, owner),
      ...userinfoProfileClaims(owner.scope, owner.updated_at),
    };
  }

  /** The contract's user info (docs/contract/oauth.md#user-info), unchanged for tokens without `openid`. */
  private specFields(owner: TokenOwner): UserInfo {
    return {
      id: userIdNumber(owner.id),
      username: owner.username,
      nickname: owner.nickname,
      email: owner.email,
      avatar: owner.avatar,
      groups: isGroupCode(owner.group) ? impliedGroups(owner.group) : [],
      upstreams: userinfoUpstreamsOf(owner.upstreams ?? null),
    };
  }

  async emails(req: Request): Promise<UserEmailEntry[]> {
    const owner = await this.authenticate(
      (tokenHash) => this.ownerOf(OWNER, tokenHash),
      req,
      presentedToken(authorizationOf(req), undefined),
      EMAILS_SCOPES,
    );
    const rows = await this.dataSource.query<UserEmailEntry[]>(
      'SELECT email, verified, "primary", visibility FROM user_emails WHERE user_id = $1 ORDER BY "primary" DESC, id ASC',
      [owner.id],
    );
    return rows.map((row) => ({
      email: row.email,
      verified: row.verified,
      primary: row.primary,
      visibility: row.visibility,
    }));
  }

  /**
   * One query resolves the token and checks, besides expiry and revocation, that the application
   * and the user's relation are still enabled and the authorization stands, so a revocation through
   * the application API takes effect on the very next request. One index probe per table
   * (EXPLAIN in docs/performance/oauth.md). A token sent under the DPoP scheme comes with a proof,
   * checked first (RFC 9449 section 7.1); a DPoP-bound token is then accepted only with a proof
   * of its key, never as a bearer token (section 7.2), and a bearer token only as one.
   */
  private async authenticate(
    find: (tokenHash: string) => Promise<TokenOwner | null>,
    req: Request,
    { token, scheme }: PresentedToken,
    anyOf: readonly OAuthScope[],
    named: readonly OAuthScope[] = anyOf,
  ): Promise<TokenOwner> {
    const proof = scheme === 'DPoP' ? await this.dpop.atResource(req, token) : null;
    const jkt = proof?.jkt ?? null;
    const owner = await find(sha256Hex(token));
    if (!owner) {
      const description = 'The access token is invalid, expired or revoked';
      throw jkt === null
        ? invalidToken(description)
        : resourceDpopError('invalid_token', description);
    }
    if (owner.dpop_jkt !== jkt) throw bindingMismatch(owner.dpop_jkt, jkt);
    // The proof's single use, once it came with a real token bound to its key.
    await proof?.spend();
    if (!scopeAllows(owner.scope, anyOf)) {
      throw new OAuthError(
        'insufficient_scope',
        `This endpoint needs one of the scopes: ${named.join(', ')}`,
        `${REALM}, error="insufficient_scope", scope="${named.join(' ')}"`,
      );
    }
    return owner;
  }

  /** The owner of one token by one of the single-token statements; null when it does not qualify. */
  private async ownerOf(
    owner: typeof USERINFO | typeof OWNER,
    tokenHash: string,
  ): Promise<TokenOwner | null> {
    const values = owner.values({ tokenHash, now: this.clock.now() });
    const rows = await preparedQuery<TokenOwner>(this.dataSource, owner.name, owner.text, values);
    return rows[0] ?? null;
  }
}

/**
 * User ids are PostgreSQL bigint, read as exact text. The contract's `id: integer` is a JSON number,
 * which every client parses exactly only up to 2^53 − 1 (RFC 8259 section 6): ids up to that
 * bound are returned as numbers, exactly; above it the request fails (500, logged) rather than
 * hand out a rounded id that may be another user's. The bound is 9 × 10^15 users away.
 */
export function userIdNumber(id: string): number {
  const value = BigInt(id);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`User id ${id} is beyond the JSON-safe integer range`);
  }
  return Number(value);
}
