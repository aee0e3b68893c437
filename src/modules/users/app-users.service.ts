import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { EventsService } from '../events/events.service';
import { TokensRepository } from '../tokens/tokens.repository';
import { QUEUE_APPLICATION_LOGOUTS_SQL } from './application-logouts-sql';
import { AppUser } from './app-user.entity';
import { AppUsersRepository } from './app-users.repository';
import type { UserChange } from './user-patch';
import type { UserListQuery } from './user-query';
import { RevocationResult, toUserView, UserPage, UserView } from './user-view';

const notFound = (): AppError =>
  new AppError(ErrorCode.UserNotFound, 'No such user for this application');

/** Who revoked an authorization: named in the events the application reads (GET /events). */
export type RevocationSource = 'application_api' | 'console' | 'account_page';

const REVOKED_BY: Record<RevocationSource, string> = {
  application_api: 'through the application API',
  console: 'from the console',
  account_page: 'by the user from their account page',
};

/** How `revoke` runs: in the caller's transaction, for whom, and whether a grant must exist. */
export interface RevokeOptions {
  /** The caller's transaction (the console records the change in it). */
  manager?: EntityManager;
  /** Worded into the events' descriptions; the application API by default. */
  source?: RevocationSource;
  /** Refuse (404) a relation without a live grant (granted_scope null), under the row lock. */
  grantedOnly?: boolean;
}

/** A live grant of one user: an application they authorized and have not revoked. */
export interface LiveGrant {
  applicationId: number;
  grantedScope: string;
  /**
   * The application's last use of the account: the later of its last authorization
   * (app_users.last_auth_at) and the last tokens it got (a code exchange or a refresh).
   */
  lastUsedAt: Date | null;
}

/**
 * The application's view of its users (docs/contract/users.md). A user without a relation
 * to the application does not exist for it: 404, as for an unknown id.
 */
@Injectable()
export class AppUsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: AppUsersRepository,
    private readonly events: EventsService,
    private readonly tokens: TokensRepository,
    private readonly clock: Clock,
  ) {}

  async list(applicationId: number, query: UserListQuery): Promise<UserPage> {
    const { rows, total } = await this.repository.list(applicationId, query);
    return { items: rows.map(toUserView), total, page: query.page, pageSize: query.pageSize };
  }

  async get(applicationId: number, userId: string): Promise<UserView> {
    const row = await this.repository.findOne(applicationId, userId);
    if (!row) throw notFound();
    return toUserView(row);
  }

  /** The views of the application's users among `userIds`, by user id, in one query. */
  async viewsOf(applicationId: number, userIds: string[]): Promise<Map<string, UserView>> {
    const rows = await this.repository.findMany(applicationId, [...new Set(userIds)]);
    return new Map(rows.map((row) => [row.user_id, toUserView(row)]));
  }

  /**
   * Applies group/enabled; disabling forces the user offline in the same transaction (docs/contract/users.md#patch-usersuserid).
   * Neither touches console access: console roles live in console_members.
   * With `outer`, inside that transaction (the console records the change in it); `source`
   * names who did it in the token_revoked events' descriptions.
   */
  async update(
    applicationId: number,
    userId: string,
    patch: UserChange,
    outer?: EntityManager,
    source: RevocationSource = 'application_api',
  ): Promise<UserView> {
    return (outer ?? this.dataSource.manager).transaction(async (manager) => {
      if (!(await this.repository.lockRelation(manager, applicationId, userId))) throw notFound();
      const set: Record<string, unknown> = {};
      if (patch.group !== undefined) set.group = patch.group;
      if (patch.enabled !== undefined) set.enabled = patch.enabled;
      await manager.update(AppUser, { applicationId, userId }, set);
      if (patch.enabled === false) {
        await this.revokeTokens(manager, applicationId, userId, REVOKED_BY[source]);
      }
      const row = await this.repository.findOne(applicationId, userId, manager);
      if (!row) throw notFound();
      return toUserView(row);
    });
  }

  /**
   * Relates the creator of an application to it in group `admin`, so the creator is one of its
   * users from the start: no authorization yet, so no consent and no counts. In the creating
   * transaction. The group is the application's data; the console role of the creator comes
   * from `applications.owner_id`, never from this relation (docs/console.md, "Roles").
   */
  async relateOwner(manager: EntityManager, applicationId: number, userId: string): Promise<void> {
    await manager.insert(AppUser, {
      applicationId,
      userId,
      group: 'admin',
      enabled: true,
      grantedScope: null,
      authCount: 0,
      createdAt: this.clock.now(),
    });
  }

  /**
   * POST /users/:userId/revoke (and the account page's "Revoke"): revokes every live token,
   * keeps the relation and forgets the consent (granted_scope = null) so the next
   * authorization is interactive again (docs/contract/users.md#post-usersuseridrevoke), with one
   * token_revoked event per token and an authorization_revoked event naming `source`.
   */
  async revoke(
    applicationId: number,
    userId: string,
    options: RevokeOptions = {},
  ): Promise<RevocationResult> {
    const by = REVOKED_BY[options.source ?? 'application_api'];
    return (options.manager ?? this.dataSource.manager).transaction(async (manager) => {
      if (!(await this.repository.lockRelation(manager, applicationId, userId))) throw notFound();
      const [previous] = await manager.query<{ granted_scope: string | null }[]>(
        'SELECT granted_scope FROM app_users WHERE application_id = $1 AND user_id = $2',
        [applicationId, userId],
      );
      if (options.grantedOnly && previous?.granted_scope == null) throw notFound();
      await manager.update(AppUser, { applicationId, userId }, { grantedScope: null });
      const revokedTokens = await this.revokeTokens(manager, applicationId, userId, by);
      await this.events.record(manager, {
        applicationId,
        eventType: 'authorization_revoked',
        userId,
        scope: previous?.granted_scope ?? '',
        description: `Revoked ${by} (${revokedTokens} tokens)`,
      });
      return { revoked: true, revokedTokens };
    });
  }

  /**
   * A password reset (docs/accounts.md, "Password reset"): every live token of the user at every
   * application revoked, in the caller's transaction, and one token_revoked event per application
   * that had any, naming the cause and the count (as a replayed refresh token's family is
   * reported: one event per request). Consent stays: the next sign-in needs no consent page.
   * Returns how many tokens were revoked.
   */
  async revokeAfterPasswordReset(manager: EntityManager, userId: string): Promise<number> {
    const rows = await this.tokens.revokeOfUser(manager, userId, this.clock.now());
    const perApplication = new Map<number, { scopes: Set<string>; count: number }>();
    for (const row of rows) {
      const entry = perApplication.get(row.applicationId) ?? { scopes: new Set(), count: 0 };
      for (const scope of row.scope.split(' ').filter(Boolean)) entry.scopes.add(scope);
      entry.count += 1;
      perApplication.set(row.applicationId, entry);
    }
    for (const [applicationId, { scopes, count }] of perApplication) {
      await this.events.record(manager, {
        applicationId,
        eventType: 'token_revoked',
        userId,
        scope: [...scopes].join(' '),
        description: `password reset of the account: ${count} token(s) revoked`,
      });
    }
    return rows.length;
  }

  /** The applications `userId` has a live grant for (granted_scope set), oldest relation first. */
  async liveGrantsOf(userId: string): Promise<LiveGrant[]> {
    const rows = await this.dataSource.query<
      { application_id: number; granted_scope: string; last_auth_at: Date | null }[]
    >(
      `SELECT application_id, granted_scope, last_auth_at FROM app_users
       WHERE user_id = $1 AND granted_scope IS NOT NULL ORDER BY id`,
      [userId],
    );
    const issued = await this.tokens.lastIssuedPerApplication(this.dataSource.manager, userId);
    return rows.map((row) => ({
      applicationId: row.application_id,
      grantedScope: row.granted_scope,
      lastUsedAt: latest(row.last_auth_at, issued.get(row.application_id) ?? null),
    }));
  }

  /**
   * Marks the user's live tokens for the application revoked; one token_revoked event each. The
   * user's sessions in which the application got an id_token owe it a back-channel logout, queued
   * in the same transaction; the sessions themselves stay, since they serve every other
   * application (application-logouts-sql.ts, docs/oidc.md "Back-channel logout").
   */
  private async revokeTokens(
    manager: EntityManager,
    applicationId: number,
    userId: string,
    by: string,
  ): Promise<number> {
    await manager.query(QUEUE_APPLICATION_LOGOUTS_SQL, [applicationId, userId, this.clock.now()]);
    const rows = await this.tokens.revokeOfRelation(
      manager,
      applicationId,
      userId,
      this.clock.now(),
    );
    for (const token of rows) {
      await this.events.record(manager, {
        applicationId,
        eventType: 'token_revoked',
        userId,
        scope: token.scope,
        description: `Token ${token.id} revoked ${by}`,
      });
    }
    return rows.length;
  }
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return a ?? b;
  return a.getTime() >= b.getTime() ? a : b;
}
