import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import type { Application } from '../../applications/application.entity';
import { EventsService } from '../../events/events.service';
import type { CurrentSession } from '../../sessions/session.service';
import { RelationActivity } from '../../users/relation-activity';
import type { User } from '../../users/user.entity';
import type { AuthorizationRequest } from '../authorize/authorization-request';
import { checkUserAccess, type AccessDecision } from '../authorize/checks/check-user-access';
import { OAuthError } from '../protocol/oauth-error';
import { scopeUnion } from '../protocol/scopes';
import { DEVICE_PAGE_PATH } from './device-authorization.service';
import { userCodeHash, userCodeKey } from './user-code';

/** A device authorization waiting for the person, as the pages see it. */
export interface PendingDevice {
  id: string;
  applicationId: number;
  scope: string;
}

export type DeviceAnswer =
  | { kind: 'approved' }
  | { kind: 'denied' }
  | { kind: 'gone' }
  | {
      kind: 'refused';
      error: OAuthError;
    };

/**
 * The person's side of a device authorization (interaction/device/ asks; this decides): finding
 * the code they typed, the authorization request their sign-in goes through, the rules of
 * /authorize at approval (checkUserAccess under lock, as GrantService.grant), and the answer
 * written to the device row for the token endpoint to find.
 */
@Injectable()
export class DeviceApprovals {
  /** The key user codes are stored under (user-code.ts). */
  private readonly userCodeKey: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly events: EventsService,
    private readonly relations: RelationActivity,
  ) {
    this.userCodeKey = userCodeKey(config.sessionSecret);
  }

  /** The live, unanswered authorization of a normalised user code, or null (one answer for all). */
  async findPending(normalisedUserCode: string): Promise<PendingDevice | null> {
    const rows = await this.dataSource.query<PendingDevice[]>(
      `SELECT id::text AS id, application_id AS "applicationId", scope FROM oauth_device_codes
       WHERE user_code_hash = $1 AND status = 'pending' AND expires_at > $2`,
      [userCodeHash(normalisedUserCode, this.userCodeKey), this.clock.now()],
    );
    return rows[0] ?? null;
  }

  /** Whether the authorization `id` still waits for an answer. */
  async isPending(id: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM oauth_device_codes WHERE id = $1 AND status = 'pending' AND expires_at > $2`,
      [id, this.clock.now()],
    );
    return rows.length > 0;
  }

  /**
   * The authorization request the person's sign-in goes through (the login page's, sealed like
   * any other): the device's application and scope, the device page as its redirect_uri (never
   * followed with a code), and the device authorization it is for.
   */
  requestFor(device: PendingDevice, shownUserCode: string): AuthorizationRequest {
    return {
      applicationId: device.applicationId,
      redirectUri: `${this.config.publicBaseUrl}${DEVICE_PAGE_PATH}`,
      scope: device.scope,
      state: null,
      codeChallenge: null,
      prompt: null,
      upstreamProviders: null,
      device: { id: device.id, userCode: shownUserCode },
    };
  }

  /**
   * Approves (or denies) the device authorization `id` for the signed-in person. Approval
   * re-checks the rules of /authorize under row locks (checkUserAccess, as GrantService.grant:
   * a disabled application or relation, a full quota, a required verified email or upstream
   * refuse it), records the grant on the user–application relation and `authorization_granted`,
   * and writes the user and the sign-in's time and method on the row for the id_token. `gone`:
   * the code was answered meanwhile or expired.
   */
  answer(
    application: Application,
    signedIn: CurrentSession,
    id: string,
    approve: boolean,
  ): Promise<DeviceAnswer> {
    const { user, session } = signedIn;
    return this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const locked = await manager.query<{ scope: string }[]>(
        `SELECT scope FROM oauth_device_codes
         WHERE id = $1 AND application_id = $2 AND status = 'pending' AND expires_at > $3
         FOR UPDATE`,
        [id, application.id, now],
      );
      const row = locked[0];
      if (!row) return { kind: 'gone' };
      if (!approve) {
        await this.write(manager, id, 'denied', user, null, null, now);
        return { kind: 'denied' };
      }
      const decision = await checkUserAccess(manager, application, user, row.scope, true);
      if (decision.kind === 'denied') return { kind: 'refused', error: decision.error };
      await this.relations.recordAuthorization(
        manager,
        application.id,
        user.id,
        scopeUnion(decision.relation?.grantedScope ?? null, row.scope),
        now,
      );
      await this.events.record(manager, {
        applicationId: application.id,
        userId: user.id,
        eventType: 'authorization_granted',
        scope: row.scope,
        description: 'device authorization',
      });
      await this.write(manager, id, 'approved', user, session.createdAt, session.authMethod, now);
      return { kind: 'approved' };
    });
  }

  /** The rules of /authorize for this person, read-only (which page to show). */
  decide(application: Application, user: User, scope: string): Promise<AccessDecision> {
    return checkUserAccess(this.dataSource.manager, application, user, scope);
  }

  private async write(
    manager: DataSource['manager'],
    id: string,
    status: 'approved' | 'denied',
    user: User,
    authTime: Date | null,
    authMethod: string | null,
    now: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE oauth_device_codes
       SET status = $2, user_id = $3, auth_time = $4, auth_method = $5, decided_at = $6
       WHERE id = $1`,
      [id, status, user.id, authTime, authMethod, now],
    );
  }
}
