import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { sha256Hex } from '../../../common/crypto/hash';
import { statement } from '../../../common/sql/statement';
import { insertEventSql } from '../../events/event-sql';
import { insertTokenSql, markRotatedSql } from '../../tokens/token-sql';
import type { TokenBinding } from './token-binding';

/**
 * The token response (docs/contract/oauth.md#token-response; RFC 6749 section 5.1): `bearer`, or
 * `DPoP` for tokens bound to the key of the request's DPoP proof (RFC 9449 section 5).
 */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer' | 'DPoP';
  expires_in: number;
  refresh_token: string;
  scope: string;
  /** Only when the scope contains openid (OIDC Core 3.1.3.3; id-token.service.ts). */
  id_token?: string;
}

export interface TokenGrant {
  applicationId: number;
  userId: string;
  scope: string;
  /** Family and origin; a new family starts at a code exchange. */
  familyId?: string;
  codeId: string | null;
  parentId?: string;
  /** 0 for a code's tokens (the default), the parent's + 1 for a refresh's. */
  generation?: number;
  /** The DPoP keys the pair is bound to. */
  binding: TokenBinding;
}

/** A freshly minted token pair: the plaintexts go to the client, only the hashes are stored. */
export interface MintedTokens {
  accessToken: string;
  refreshToken: string;
  accessHash: string;
  refreshHash: string;
  now: Date;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

/** The step-by-step refresh's issue: bound by name (src/common/sql/statement.ts). */
const ISSUE = statement(
  `WITH rotated AS (${markRotatedSql(':parentId', ':now')}),
  issued AS (${insertTokenSql({
    applicationId: ':applicationId',
    userId: ':userId',
    accessHash: ':accessHash',
    refreshHash: ':refreshHash',
    scope: ':scope',
    accessExpiresAt: ':accessExpiresAt',
    refreshExpiresAt: ':refreshExpiresAt',
    familyId: ':familyId',
    codeId: ':codeId',
    parentId: ':parentId',
    generation: ':generation',
    createdAt: ':now',
    dpopJkt: ':jkt',
    refreshDpopJkt: ':refreshJkt',
  })})
  ${insertEventSql({
    applicationId: ':applicationId',
    eventType: ':eventType',
    userId: ':userId',
    scope: ':scope',
    description: "''",
    createdAt: ':now',
  })}`,
  [
    'applicationId',
    'userId',
    'accessHash',
    'refreshHash',
    'scope',
    'accessExpiresAt',
    'refreshExpiresAt',
    'familyId',
    'codeId',
    'parentId',
    'now',
    'eventType',
    'generation',
    'jkt',
    'refreshJkt',
  ],
);

/** Mints an opaque access and refresh token pair and stores only their SHA-256 hashes. */
@Injectable()
export class TokenIssuer {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * One statement: retires the parent (on refresh), inserts the token pair and records the event
   * (the step-by-step refresh; the fast paths compose the same fragments of the tokens and events
   * modules into their own statement).
   */
  async issue(
    manager: EntityManager,
    grant: TokenGrant,
    event: 'token_issued' | 'token_refreshed',
  ): Promise<TokenResponse> {
    const minted = this.mint();
    const values = ISSUE.values({
      applicationId: grant.applicationId,
      userId: grant.userId,
      accessHash: minted.accessHash,
      refreshHash: minted.refreshHash,
      scope: grant.scope,
      accessExpiresAt: minted.accessExpiresAt,
      refreshExpiresAt: minted.refreshExpiresAt,
      familyId: grant.familyId ?? randomUUID(),
      codeId: grant.codeId,
      parentId: grant.parentId ?? null,
      now: minted.now,
      eventType: event,
      generation: grant.generation ?? 0,
      jkt: grant.binding.jkt,
      refreshJkt: grant.binding.refreshJkt,
    });
    await manager.query(ISSUE.text, values);
    return this.response(minted, grant.scope, grant.binding.jkt);
  }

  mint(): MintedTokens {
    const accessToken = newOpaqueToken();
    const refreshToken = newOpaqueToken();
    const now = this.clock.now();
    return {
      accessToken,
      refreshToken,
      accessHash: sha256Hex(accessToken),
      refreshHash: sha256Hex(refreshToken),
      now,
      accessExpiresAt: new Date(now.getTime() + this.config.accessTokenTtlSeconds * 1000),
      refreshExpiresAt: new Date(now.getTime() + this.config.refreshTokenTtlSeconds * 1000),
    };
  }

  /**
   * The token response (docs/contract/oauth.md#token-response), never cached (RFC 6749 section
   * 5.1); `jkt`: the key the access token is bound to (null: a bearer token).
   */
  response(minted: MintedTokens, scope: string, jkt: string | null): TokenResponse {
    return {
      access_token: minted.accessToken,
      token_type: jkt === null ? 'bearer' : 'DPoP',
      expires_in: this.config.accessTokenTtlSeconds,
      refresh_token: minted.refreshToken,
      scope,
    };
  }
}
