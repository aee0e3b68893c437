import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { newOpaqueToken } from './opaque-token';
import { sha256Hex } from '../../common/crypto/hash';

/** The token response (spec section 2; RFC 6749 section 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface TokenGrant {
  applicationId: number;
  userId: string;
  scope: string;
  /** Family and origin; a new family starts at a code exchange. */
  familyId?: string;
  codeId: string | null;
  parentId?: string;
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

/** Mints an opaque access and refresh token pair and stores only their SHA-256 hashes. */
@Injectable()
export class TokenIssuer {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * One statement: retires the parent (on refresh), inserts the token pair and records the event
   * (the event row is written here directly, not through EventsService.record, to keep the token
   * path to one round trip; same columns, same transaction).
   */
  async issue(
    manager: EntityManager,
    grant: TokenGrant,
    event: 'token_issued' | 'token_refreshed',
  ): Promise<TokenResponse> {
    const minted = this.mint();
    await manager.query(
      `WITH rotated AS (UPDATE oauth_tokens SET rotated_at = $11 WHERE id = $10),
       issued AS (
         INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
           access_expires_at, refresh_expires_at, family_id, code_id, parent_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11))
       INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
       VALUES ($1, $12, 'oauth2', 'success', $2, $5, '', $11)`,
      [
        grant.applicationId,
        grant.userId,
        minted.accessHash,
        minted.refreshHash,
        grant.scope,
        minted.accessExpiresAt,
        minted.refreshExpiresAt,
        grant.familyId ?? randomUUID(),
        grant.codeId,
        grant.parentId ?? null,
        minted.now,
        event,
      ],
    );
    return this.response(minted, grant.scope);
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

  /** The token response (spec section 2), never cached (RFC 6749 section 5.1). */
  response(minted: MintedTokens, scope: string): TokenResponse {
    return {
      access_token: minted.accessToken,
      token_type: 'bearer',
      expires_in: this.config.accessTokenTtlSeconds,
      refresh_token: minted.refreshToken,
      scope,
    };
  }
}
