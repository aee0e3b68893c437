import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ApplicationsService } from '../applications/applications.service';
import { AuditLog } from '../audit/audit-log.service';
import { ConsoleAccess } from '../console/console-access.service';
import type { ConsoleActor } from '../console/console-session';
import { PasskeyConfirmations } from '../passkeys/passkey-confirmations.service';
import { UpstreamProvidersService } from '../upstreams/providers/upstream-providers.service';
import { AppUsersService } from '../users/app-users.service';
import { parseNewApplication, parseSettings, settingsDetails } from './application-input';
import {
  toDetail,
  toSummary,
  type ApplicationDetail,
  type ApplicationSummary,
  type ApplicationWithSecret,
  type ClientSecretView,
} from './application-views';
import { ConsoleScope } from './console-scope';

/**
 * The console's applications (issue 10): the rules live in ApplicationsService; this adds the
 * roles, the passkey confirmations and the audit records. Order of every write: role (404/403)
 * → body (400) → confirmation (403) → the change → its audit record.
 */
@Injectable()
export class ConsoleApplications {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: ConsoleAccess,
    private readonly scope: ConsoleScope,
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
  async create(actor: ConsoleActor, body: unknown): Promise<ApplicationWithSecret> {
    const input = parseNewApplication(body, actor.user.id);
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

  async get(actor: ConsoleActor, rawId: string): Promise<ApplicationDetail> {
    const { applicationId, role } = await this.scope.of(actor, rawId, 'viewer');
    return toDetail(await this.applications.get(applicationId), role);
  }

  async update(actor: ConsoleActor, rawId: string, body: unknown): Promise<ApplicationWithSecret> {
    const { applicationId, role } = await this.scope.of(actor, rawId, 'admin');
    const settings = parseSettings(body);
    await this.checkProviders(settings.requiredUpstreams);
    const { application, clientSecret } = await this.applications.update(applicationId, settings);
    await this.record(actor, applicationId, 'application.update', settingsDetails(settings));
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
    rawId: string,
    confirmation: string | undefined,
  ): Promise<ClientSecretView> {
    const { applicationId } = await this.scope.of(actor, rawId, 'admin');
    const application = await this.applications.get(applicationId);
    // Refused before the confirmation is spent: there is nothing to reset.
    if (application.clientAuthMethod !== 'secret') {
      throw new AppError(ErrorCode.Conflict, 'A public (none) client has no client secret');
    }
    await this.confirmations.consume(
      actor.user.id,
      'client_secret.reset',
      { applicationId },
      confirmation,
    );
    const clientSecret = await this.applications.resetClientSecret(applicationId);
    await this.record(actor, applicationId, 'client_secret.reset', {});
    return { clientSecret };
  }

  /** Owner only; keys, relations, tokens and events go with it; the audit log stays. */
  async delete(
    actor: ConsoleActor,
    rawId: string,
    confirmation: string | undefined,
  ): Promise<void> {
    const { applicationId } = await this.scope.of(actor, rawId, 'owner');
    await this.confirmations.consume(
      actor.user.id,
      'application.delete',
      { applicationId },
      confirmation,
    );
    const { name } = await this.applications.get(applicationId);
    await this.applications.delete(applicationId);
    await this.record(actor, applicationId, 'application.delete', { name });
  }

  private record(
    actor: ConsoleActor,
    applicationId: number,
    action: string,
    details: Record<string, string | boolean | string[]>,
  ): Promise<void> {
    return this.audit.record({
      applicationId,
      actorUserId: actor.user.id,
      action,
      target: `application:${applicationId}`,
      details,
      ip: actor.ip,
    });
  }
}
