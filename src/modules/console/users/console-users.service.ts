import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../../audit/audit-log.service';
import type { ConsoleActor } from '../session/console-session';
import { EventFeedService } from '../../events/event-feed.service';
import type { EventListQuery } from '../../events/event-query';
import type { EventPage } from '../../events/event-view';
import { StatsService } from '../../stats/stats.service';
import type { StatsView } from '../../stats/stats-view';
import { AppUsersService } from '../../users/app-users.service';
import { toUserChange, type UserPatch } from '../../users/user-patch';
import { parseUserId, type UserListQuery } from '../../users/user-query';
import type { RevocationResult, UserPage, UserView } from '../../users/user-view';
import type { ScopedApplication } from '../roles/application-role';

/**
 * Users, events and stats of an application in the console: the same services, DTOs and
 * results as /api/v1/app (app-api/*.controller.ts), with the application of the path, whose
 * console role the routes' @ApplicationRole checked, in place of the key and its scopes; the
 * queries and bodies come checked by the global pipe.
 */
@Injectable()
export class ConsoleUsers {
  constructor(
    private readonly users: AppUsersService,
    private readonly events: EventFeedService,
    private readonly stats: StatsService,
    private readonly audit: AuditLog,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list({ applicationId }: ScopedApplication, query: UserListQuery): Promise<UserPage> {
    return this.users.list(applicationId, query);
  }

  async get({ applicationId }: ScopedApplication, rawUserId: string): Promise<UserView> {
    return this.users.get(applicationId, parseUserId(rawUserId));
  }

  /** Group and/or enabled: the application's data about the user, not console access. */
  async update(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    userId: string, // checked by the route's @PathUserId()
    body: UserPatch,
  ): Promise<UserView> {
    const patch = toUserChange(body);
    const details: Record<string, string | boolean> = {};
    if (patch.group !== undefined) details.group = patch.group;
    if (patch.enabled !== undefined) details.enabled = patch.enabled;
    return this.dataSource.transaction(async (manager) => {
      const view = await this.users.update(applicationId, userId, patch, manager, 'console');
      await this.record(manager, actor, applicationId, 'user.update', userId, details);
      return view;
    });
  }

  /** Revokes the user's tokens and consent in the application (the API's POST /revoke). */
  async forceOffline(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawUserId: string,
  ): Promise<RevocationResult> {
    const userId = parseUserId(rawUserId);
    return this.dataSource.transaction(async (manager) => {
      const result = await this.users.revoke(applicationId, userId, { manager, source: 'console' });
      await this.record(manager, actor, applicationId, 'user.force_offline', userId, {
        revokedTokens: result.revokedTokens,
      });
      return result;
    });
  }

  async listEvents(
    { applicationId }: ScopedApplication,
    query: EventListQuery,
  ): Promise<EventPage> {
    return this.events.list(applicationId, query);
  }

  async getStats({ applicationId }: ScopedApplication): Promise<StatsView> {
    return this.stats.forApplication(applicationId);
  }

  /** In the change's transaction: the change and its record commit together. */
  private record(
    manager: EntityManager,
    actor: ConsoleActor,
    applicationId: number,
    action: string,
    userId: string,
    details: Record<string, string | boolean | number>,
  ): Promise<void> {
    return this.audit.record(
      {
        applicationId,
        actorUserId: actor.user.id,
        action,
        target: `user:${userId}`,
        details,
        ip: actor.ip,
      },
      manager,
    );
  }
}
