import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { EventsService } from '../events/events.service';
import { hashToken, newOpaqueToken } from './opaque-token';

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

/** Mints an opaque access and refresh token pair and stores only their SHA-256 hashes. */
@Injectable()
export class TokenIssuer {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  async issue(
    manager: EntityManager,
    grant: TokenGrant,
    event: 'token_issued' | 'token_refreshed',
  ): Promise<TokenResponse> {
    const accessToken = newOpaqueToken();
    const refreshToken = newOpaqueToken();
    const now = this.clock.now().getTime();
    await manager.query(
      `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
         access_expires_at, refresh_expires_at, family_id, code_id, parent_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        grant.applicationId,
        grant.userId,
        hashToken(accessToken),
        hashToken(refreshToken),
        grant.scope,
        new Date(now + this.config.accessTokenTtlSeconds * 1000),
        new Date(now + this.config.refreshTokenTtlSeconds * 1000),
        grant.familyId ?? randomUUID(),
        grant.codeId,
        grant.parentId ?? null,
        new Date(now),
      ],
    );
    await this.events.record(manager, {
      applicationId: grant.applicationId,
      userId: grant.userId,
      eventType: event,
      scope: grant.scope,
    });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: this.config.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      scope: grant.scope,
    };
  }
}
