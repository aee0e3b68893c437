import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ApplicationsService, noSecret } from '../../applications/applications.service';
import { checkSettings } from '../../applications/application-rules';
import { changedClientSettings, clientSettingsDigest } from '../../applications/client-settings';
import type { AuditDetails } from '../../audit/audit-log.entity';
import { AuditLog } from '../../audit/audit-log.service';
import type { ScopedApplication } from '../roles/application-role';
import { ConsoleAccess } from '../roles/console-access.service';
import type { ConsoleActor } from '../session/console-session';
import { PasskeyConfirmations } from '../passkeys/confirmations/passkey-confirmations.service';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { AppUsersService } from '../../users/app-users.service';
import type { ApplicationSettingsBody, NewApplicationBody } from './application.dto';
import { settingsAuditEntries, toNewApplication, toSettings } from './application-input';
import {
  toDetail,
  toSummary,
  type ApplicationDetail,
  type ApplicationSummary,
  type ApplicationWithSecret,
  type ClientSecretView,
} from './application-views';

/**
 * The console's applications: the rules live in ApplicationsService; this adds the passkey
 * confirmations and the audit records. The role (404/403) is checked before, by the route's
 * @ApplicationRole. Order of every write: body (400) → confirmation (403) → the change → its
 * audit record, the last three in one transaction (docs/security.md, "Audit log").
 */
@Injectable()
export class ConsoleApplications {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: ConsoleAccess,
    private readonly applications: ApplicationsService,
    private readonly appUsers: AppUsersService,
    private readonly confirmations: PasskeyConfirmations,
    private readonly audit: AuditLog,
    private readonly providers: UpstreamProvidersService,
  ) {}

  async list(actor: ConsoleActor): Promise<ApplicationSummary[]> {
    const roles = await this.access.rolesOf(actor.user.id);
    const roleOf = new Map(roles.map((row) => [row.applicationId, row.role]));
    const found = await this.applications.findByIds([...roleOf.keys()]);
    return found.map((application) => toSummary(application, roleOf.get(application.id)!));
  }

  /** The creator becomes the owner, related as admin, in the creating transaction. */
  async create(actor: ConsoleActor, body: NewApplicationBody): Promise<ApplicationWithSecret> {
    const input = toNewApplication(body, actor.user.id);
    const created = await this.dataSource.transaction(async (manager) => {
      const result = await this.applications.create(input, manager);
      const { id, name } = result.application;
      await this.appUsers.relateOwner(manager, id, actor.user.id);
      await this.audit.record(
        {
          applicationId: id,
          actorUserId: actor.user.id,
          action: 'application.create',
          target: `application:${id}`,
          details: { name, clientAuthMethod: result.application.clientAuthMethod },
          ip: actor.ip,
        },
        manager,
      );
      return result;
    });
    return { ...toDetail(created.application, 'owner'), clientSecret: created.clientSecret };
  }

  async get({ applicationId, role }: ScopedApplication): Promise<ApplicationDetail> {
    return toDetail(await this.applications.get(applicationId), role);
  }

  /**
   * A change of the OAuth client settings (redirect URIs, post-logout redirect URIs, the client
   * authentication method, a private_key_jwt client's jwks or jwksUri, a new back-channel
   * logout URI) needs a `client_settings.update` confirmation bound to this
   * application and exactly the client settings sent (their digest); other fields need none.
   * Whether they change is read under the row's lock, and the token, the change and its audit
   * records (one per kind of change) commit together.
   */
  async update(
    actor: ConsoleActor,
    { applicationId, role }: ScopedApplication,
    body: ApplicationSettingsBody,
    confirmation: string | undefined,
  ): Promise<ApplicationWithSecret> {
    const settings = toSettings(body);
    await this.checkProviders(settings.requiredUpstreams);
    checkSettings(settings);
    // A logout URI the change would refuse is refused before the confirmation is spent.
    this.applications.logoutUri(settings.backchannelLogoutUri);
    const { application, clientSecret } = await this.dataSource.transaction(async (manager) => {
      const current = await this.applications.lockForUpdate(applicationId, manager);
      const changed = changedClientSettings(current, settings);
      if (changed.length > 0) {
        await this.confirmations.consume(
          actor.user.id,
          'client_settings.update',
          { applicationId, changeDigest: clientSettingsDigest(settings) },
          confirmation,
          manager,
        );
      }
      const result = await this.applications.update(applicationId, settings, manager);
      for (const entry of settingsAuditEntries(settings, changed, current.clientAuthMethod)) {
        await this.record(actor, applicationId, entry.action, entry.details, manager);
      }
      if (result.clientSecret !== null) {
        await this.record(actor, applicationId, 'client_secret.issue', {}, manager);
      }
      return result;
    });
    return { ...toDetail(application, role), clientSecret };
  }

  /** Required upstreams must name configured providers (disabled ones included: see docs). */
  private async checkProviders(ids: string[] | undefined): Promise<void> {
    if (ids === undefined || ids.length === 0) return;
    const configured = new Set((await this.providers.list()).map((provider) => provider.id));
    const unknown = ids.filter((id) => !configured.has(id));
    if (unknown.length > 0) {
      throw new AppError(
        ErrorCode.InvalidRequest,
        `requiredUpstreams: no such upstream provider: ${unknown.join(', ')}`,
      );
    }
  }

  async resetClientSecret(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    confirmation: string | undefined,
  ): Promise<ClientSecretView> {
    const application = await this.applications.get(applicationId);
    // Refused before the confirmation is spent: there is nothing to reset.
    if (application.clientAuthMethod !== 'secret') {
      throw new AppError(ErrorCode.Conflict, noSecret(application.clientAuthMethod));
    }
    const clientSecret = await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'client_secret.reset',
        { applicationId },
        confirmation,
        manager,
      );
      const secret = await this.applications.resetClientSecret(applicationId, manager);
      await this.record(actor, applicationId, 'client_secret.reset', {}, manager);
      return secret;
    });
    return { clientSecret };
  }

  /** Keys, relations, tokens and events go with it; the audit log stays. */
  async delete(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    confirmation: string | undefined,
  ): Promise<void> {
    const { name } = await this.applications.get(applicationId);
    await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'application.delete',
        { applicationId },
        confirmation,
        manager,
      );
      await this.applications.delete(applicationId, manager);
      await this.record(actor, applicationId, 'application.delete', { name }, manager);
    });
  }

  /** In the change's transaction: the change and its record commit together. */
  private record(
    actor: ConsoleActor,
    applicationId: number,
    action: string,
    details: AuditDetails,
    manager: EntityManager,
  ): Promise<void> {
    return this.audit.record(
      {
        applicationId,
        actorUserId: actor.user.id,
        action,
        target: `application:${applicationId}`,
        details,
        ip: actor.ip,
      },
      manager,
    );
  }
}
