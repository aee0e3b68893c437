import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { invalidBody } from '../../common/validation/request-errors';
import { checkSettings } from '../applications/applications.service';
import { clientSettingsDigest, parseClientSettings } from '../applications/client-settings';
import { ConsoleAccess } from '../console/console-access.service';
import { isMemberRole, MEMBER_ROLES } from '../console/console-member.entity';
import { ConsoleMembers, type RoleChange } from '../console/console-members.service';
import type { ConsoleActor } from '../console/console-session';
import { ApiKeysService } from '../keys/api-keys.service';
import { keyNotFound } from '../keys/keys.errors';
import type { ConfirmationRequest } from '../passkeys/confirmation.dto';
import { ConfirmationTargetRegistry } from '../passkeys/confirmation-target-registry';
import type { ConfirmationTarget } from '../passkeys/passkey-confirmations.service';
import { parseUserId } from '../users/user-query';

/**
 * The targets of the confirmations these routes spend (docs/console.md, "The confirmation
 * exchange"), checked when a confirmation starts as the operation would check them: admin for
 * keys, the client secret and the client settings, owner for deleting the application, and the
 * rules of the role change itself for console roles.
 */
@Injectable()
export class ConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly access: ConsoleAccess,
    private readonly keys: ApiKeysService,
    private readonly members: ConsoleMembers,
  ) {}

  onModuleInit(): void {
    const admin = {
      check: (actor: ConsoleActor, target: ConfirmationTarget) => this.admin(actor, target),
    };
    this.registry.register('key.create', admin);
    this.registry.register('client_secret.reset', admin);
    this.registry.register('client_settings.update', { ...admin, digest: settingsDigest });
    const key = {
      check: (actor: ConsoleActor, target: ConfirmationTarget) => this.key(actor, target),
    };
    this.registry.register('key.rotate', key);
    this.registry.register('key.revoke', key);
    this.registry.register('key.delete', key);
    this.registry.register('application.delete', {
      check: async (actor, target) => {
        await this.access.require(actor, target.applicationId!, 'owner');
      },
    });
    this.registry.register('console_role.grant', {
      check: (actor, target) => this.roleChange(actor, 'console_role.grant', target),
    });
    this.registry.register('console_role.revoke', {
      check: (actor, target) => this.roleChange(actor, 'console_role.revoke', target),
    });
  }

  private async admin(actor: ConsoleActor, target: ConfirmationTarget): Promise<void> {
    await this.access.require(actor, target.applicationId!, 'admin');
  }

  /** key.rotate, key.revoke, key.delete: the key must be one of the application's. */
  private async key(actor: ConsoleActor, target: ConfirmationTarget): Promise<void> {
    await this.access.require(actor, target.applicationId!, 'admin');
    const keys = await this.keys.list(target.applicationId!);
    if (!keys.some((key) => key.id === target.keyId)) throw keyNotFound();
  }

  /** The rules of the role change itself (ConsoleMembers.plan), checked before the prompt. */
  private async roleChange(
    actor: ConsoleActor,
    action: 'console_role.grant' | 'console_role.revoke',
    target: ConfirmationTarget,
  ): Promise<void> {
    const actorRole = await this.access.require(actor, target.applicationId!, 'admin');
    const role = target.role!;
    if (!isMemberRole(role)) throw invalidBody(`role must be one of ${MEMBER_ROLES.join(', ')}`);
    const userId = parseUserId(target.targetUserId!);
    target.targetUserId = userId; // canonical decimal text, as the operation binds it
    const change: RoleChange =
      action === 'console_role.grant' ? { kind: 'grant', role } : { kind: 'revoke' };
    const planned = await this.members.plan(actorRole, target.applicationId!, userId, change);
    if (planned.role !== role) {
      throw new AppError(ErrorCode.Conflict, `This user's console role is ${planned.role}`);
    }
  }
}

/** client_settings.update: the digest of the settings the PATCH will send (400 when refused). */
function settingsDigest(request: ConfirmationRequest): string {
  const settings = parseClientSettings(request.settings);
  if (!settings) {
    throw invalidBody(
      'client_settings.update needs settings: {redirectUris?, postLogoutRedirectUris?, clientAuthMethod?}',
    );
  }
  checkSettings(settings);
  return clientSettingsDigest(settings);
}
