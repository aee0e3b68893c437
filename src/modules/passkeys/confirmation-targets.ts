import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ConsoleAccess } from '../console/console-access.service';
import { isMemberRole, MEMBER_ROLES } from '../console/console-member.entity';
import { ConsoleMembers, type RoleChange } from '../console/console-members.service';
import type { ConsoleActor } from '../console/console-session';
import { ApiKeysService } from '../keys/api-keys.service';
import { keyNotFound } from '../keys/keys.errors';
import { UpstreamIdentitiesService } from '../upstreams/identities/upstream-identities.service';
import { parseUserId } from '../users/user-query';
import { UpstreamProvidersService } from '../upstreams/providers/upstream-providers.service';
import { CLIENT_AUTH_METHODS } from '../applications/application.entity';
import { checkSettings } from '../applications/applications.service';
import { clientSettingsDigest, parseClientSettings } from '../applications/client-settings';
import {
  ACTION_TARGET_FIELDS,
  CONFIRMATION_ACTIONS,
  ConfirmationStart,
  isConfirmationAction,
  PasskeyConfirmations,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './passkey-confirmations.service';
import { PasskeysService } from './passkeys.service';
import { invalidBody } from './passkeys.errors';

/** client_settings.update: the OAuth client settings the confirmed PATCH will send. */
export class ConfirmedClientSettings {
  @ApiProperty({ required: false, type: [String] }) redirectUris?: string[];
  @ApiProperty({ required: false, type: [String] }) postLogoutRedirectUris?: string[];
  @ApiProperty({ required: false, enum: CLIENT_AUTH_METHODS }) clientAuthMethod?: string;
}

/** Body of POST /api/console/confirmations. */
export class ConfirmationRequest {
  @ApiProperty({ enum: CONFIRMATION_ACTIONS }) action!: string;
  @ApiProperty({
    required: false,
    description: 'key.*, client_secret.reset and application.delete: the application',
  })
  applicationId?: number;
  @ApiProperty({ required: false, description: 'key.rotate, key.revoke, key.delete: the key' })
  keyId?: number;
  @ApiProperty({ required: false, format: 'uuid', description: 'passkey.remove: the passkey' })
  passkeyId?: string;
  @ApiProperty({
    required: false,
    description: 'upstream.unbind: the bound upstream account (its id in the account upstreams)',
  })
  upstreamIdentityId?: number;
  @ApiProperty({
    required: false,
    description: 'console_role.grant, console_role.revoke: the user whose console role changes',
  })
  targetUserId?: string;
  @ApiProperty({
    required: false,
    enum: MEMBER_ROLES,
    description: 'console_role.grant: the role given; console_role.revoke: the role withdrawn',
  })
  role?: string;
  @ApiProperty({
    required: false,
    type: ConfirmedClientSettings,
    description:
      'client_settings.update: exactly the redirectUris, postLogoutRedirectUris and clientAuthMethod the PATCH of the settings will send (the token is bound to these values)',
  })
  settings?: ConfirmedClientSettings;
  @ApiProperty({ required: false, description: 'upstream.bind: the provider to bind' })
  providerId?: string;
}

/** Body of POST /api/console/confirmations/{confirmationId}. */
export class ConfirmationAnswer {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The AuthenticationResponseJSON of navigator.credentials.get()',
  })
  response!: object;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The target fields `action` needs, each of the right type; other fields are ignored. */
function parseTarget(
  action: ConfirmationAction,
  body: Record<string, unknown>,
): ConfirmationTarget {
  const target: ConfirmationTarget = {};
  for (const field of ACTION_TARGET_FIELDS[action]) {
    const value = body[field];
    if (field === 'changeDigest') {
      const settings = parseClientSettings(body.settings);
      if (!settings) {
        throw invalidBody(
          `${action} needs settings: {redirectUris?, postLogoutRedirectUris?, clientAuthMethod?}`,
        );
      }
      checkSettings(settings);
      target.changeDigest = clientSettingsDigest(settings);
    } else if (field === 'providerId') {
      if (typeof value !== 'string') throw invalidBody(`${action} needs providerId (a string)`);
      target.providerId = value;
    } else if (field === 'passkeyId' || field === 'targetUserId' || field === 'role') {
      if (typeof value !== 'string') throw invalidBody(`${action} needs ${field} (a string)`);
      target[field] = value;
    } else {
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        throw invalidBody(`${action} needs ${field} (an integer)`);
      }
      target[field] = value;
    }
  }
  return target;
}

/**
 * Starting a confirmation answers like the operation itself would: 404 for an application
 * without a role or a key or passkey that is not there, 403 for a role below what the action
 * needs (admin for keys and the client secret, owner for deleting the application); an
 * upstream identity must be one of the user's own bindings.
 */
@Injectable()
export class ConfirmationTargets {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly keys: ApiKeysService,
    private readonly passkeys: PasskeysService,
    private readonly identities: UpstreamIdentitiesService,
    private readonly providers: UpstreamProvidersService,
    private readonly confirmations: PasskeyConfirmations,
    private readonly members: ConsoleMembers,
  ) {}

  async begin(actor: ConsoleActor, body: unknown): Promise<ConfirmationStart> {
    if (!isObject(body) || !isConfirmationAction(body.action)) {
      throw invalidBody(`action must be one of ${CONFIRMATION_ACTIONS.join(', ')}`);
    }
    const target = parseTarget(body.action, body);
    await this.check(actor, body.action, target);
    return this.confirmations.begin(actor.user.id, body.action, target);
  }

  private async check(
    actor: ConsoleActor,
    action: ConfirmationAction,
    target: ConfirmationTarget,
  ): Promise<void> {
    switch (action) {
      case 'key.create':
      case 'client_secret.reset':
      case 'client_settings.update':
        await this.access.require(actor, target.applicationId!, 'admin');
        return;
      case 'key.rotate':
      case 'key.revoke':
      case 'key.delete': {
        await this.access.require(actor, target.applicationId!, 'admin');
        const keys = await this.keys.list(target.applicationId!);
        if (!keys.some((key) => key.id === target.keyId)) throw keyNotFound();
        return;
      }
      case 'application.delete':
        await this.access.require(actor, target.applicationId!, 'owner');
        return;
      case 'passkey.register':
        return;
      case 'upstream.unbind': {
        const mine = await this.identities.listForUser(actor.user.id);
        if (!mine.some((identity) => identity.id === target.upstreamIdentityId)) {
          throw new AppError(ErrorCode.NotFound, 'No such upstream binding');
        }
        return;
      }
      case 'passkey.remove':
        await this.passkeys.get(actor.user.id, target.passkeyId!);
        return;
      case 'upstream.bind':
        if (!(await this.providers.find(target.providerId!))) {
          throw new AppError(ErrorCode.NotFound, 'No such upstream provider');
        }
        return;
      case 'console_role.grant':
      case 'console_role.revoke':
        await this.checkRoleChange(actor, action, target);
        return;
    }
  }

  /** The rules of the role change itself (ConsoleMembers.plan), checked before the prompt. */
  private async checkRoleChange(
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
