import { Inject, Injectable } from '@nestjs/common';
import { FAPI2_CODE_TTL_SECONDS } from '../../applications/security-profile';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import type { Application } from '../../applications/application.entity';
import { EventsService } from '../../events/events.service';
import { RelationActivity } from '../../users/relation-activity';
import type { User } from '../../users/user.entity';
import type { CurrentSession } from '../../sessions/session.service';
import type { AuthorizationRequest } from './authorization-request';
import { OAuthCode } from '../oauth-code.entity';
import type { OAuthSession } from '../../sessions/oauth-session.entity';
import { ACR_VALUE, isOpenId } from '../protocol/oidc-claims';
import { OAuthError } from '../protocol/oauth-error';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { sha256Hex } from '../../../common/crypto/hash';
import { scopeUnion } from '../protocol/scopes';
import { unlessIdentityAssured } from './checks/check-client-identity';
import { AccessDecision, checkUserAccess } from './checks/check-user-access';

/**
 * The session's clients (docs/oidc.md, "Back-channel logout"): recorded when a code with
 * `openid` is issued, as the session's authorizations are, so that the token endpoint writes
 * nothing more; the issuer the client used is kept for its logout tokens' `iss`. Nothing is
 * recorded when the session has just ended.
 */
const RECORD_SESSION_CLIENT_SQL = `INSERT INTO oauth_session_clients
    (sid, application_id, issuer_path, created_at)
  SELECT sid, $2, $3, $4 FROM oauth_sessions WHERE sid = $1
  ON CONFLICT (sid, application_id) DO UPDATE SET issuer_path = EXCLUDED.issuer_path`;

export type GrantOutcome = { code: string } | { error: OAuthError };

/**
 * Completes an authorization: in one transaction it re-checks access under row locks, records
 * the grant on the user–application relation (created in group t0 on first authorization),
 * issues the code and records `authorization_granted` and `code_issued`.
 */
@Injectable()
export class GrantService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly events: EventsService,
    private readonly relations: RelationActivity,
    private readonly clock: Clock,
  ) {}

  /** Read-only access check, for deciding which page to show. */
  async decide(
    application: Application,
    user: User,
    request: Pick<AuthorizationRequest, 'scope' | 'redirectUri' | 'prompts'>,
  ): Promise<AccessDecision> {
    const decision = unlessIdentityAssured(
      await checkUserAccess(this.dataSource.manager, application, user, request.scope),
      application,
      request.redirectUri,
    );
    // OIDC Core 3.1.2.1 prompt=consent: ask even when an earlier grant covers the scopes.
    return decision.kind === 'grant' && request.prompts?.includes('consent')
      ? { kind: 'consent', relation: decision.relation }
      : decision;
  }

  /** `consented`: the user just approved; otherwise an earlier grant must cover the scopes. */
  grant(
    application: Application,
    signedIn: CurrentSession,
    request: AuthorizationRequest,
    consented: boolean,
  ): Promise<GrantOutcome> {
    const { user, session } = signedIn;
    return this.dataSource.transaction(async (manager) => {
      const decision = unlessIdentityAssured(
        await checkUserAccess(manager, application, user, request.scope, true),
        application,
        request.redirectUri,
      );
      if (decision.kind === 'denied') return { error: decision.error };
      if (decision.kind === 'consent' && !consented) {
        return {
          error: new OAuthError('consent_required', 'The user has not authorized this application'),
        };
      }
      await this.recordGrant(
        manager,
        application.id,
        user.id,
        request.scope,
        decision.relation?.grantedScope ?? null,
      );
      const code = await this.issueCode(manager, application.id, user.id, request, session);
      return { code };
    });
  }

  private async recordGrant(
    manager: EntityManager,
    applicationId: number,
    userId: string,
    scope: string,
    previousScope: string | null,
  ): Promise<void> {
    const grantedScope = scopeUnion(previousScope, scope);
    await this.relations.recordAuthorization(
      manager,
      applicationId,
      userId,
      grantedScope,
      this.clock.now(),
    );
    await this.events.record(manager, {
      applicationId,
      userId,
      eventType: 'authorization_granted',
      scope,
    });
  }

  /** AUTH_CODE_TTL_SECONDS; at most 60 s for a client under the FAPI 2.0 profile (5.3.2.1). */
  private codeLifetimeSeconds(request: AuthorizationRequest): number {
    const configured = this.config.authCodeTtlSeconds;
    return request.profile === 'fapi2' ? Math.min(configured, FAPI2_CODE_TTL_SECONDS) : configured;
  }

  private async issueCode(
    manager: EntityManager,
    applicationId: number,
    userId: string,
    request: AuthorizationRequest,
    session: OAuthSession,
  ): Promise<string> {
    const code = newOpaqueToken();
    const now = this.clock.now();
    await manager.getRepository(OAuthCode).insert({
      codeHash: sha256Hex(code),
      applicationId,
      userId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scope: request.scope,
      // OIDC Core 3.1.3.6 / 2: the id_token repeats the request's nonce and the sign-in time.
      nonce: request.nonce ?? null,
      authTime: session.createdAt,
      // OIDC Core 2 amr (RFC 8176) and acr, repeated by the id_tokens of this code's family.
      authMethod: session.authMethod,
      acr: request.acr ? ACR_VALUE : null,
      // The issuer the request was sent to names the id_tokens of the code's family.
      issuerPath: request.issuerPath ?? null,
      // OIDC Back-Channel Logout 1.0 section 2.1: the id_tokens of the family carry the sid.
      sid: session.sid,
      expiresAt: new Date(now.getTime() + this.codeLifetimeSeconds(request) * 1000),
      createdAt: now,
    });
    if (isOpenId(request.scope)) {
      await manager.query(RECORD_SESSION_CLIENT_SQL, [
        session.sid,
        applicationId,
        request.issuerPath ?? null,
        now,
      ]);
    }
    await this.events.record(manager, {
      applicationId,
      userId,
      eventType: 'code_issued',
      scope: request.scope,
    });
    return code;
  }
}
