import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { MEMBER_ROLES } from '../../roles/console-member.entity';
import type { ConsoleActor } from '../../session/console-session';
import { CLIENT_AUTH_METHODS } from '../../../applications/application.entity';
import { ConfirmationTargetRegistry } from './confirmation-target-registry';
import {
  ACTION_TARGET_FIELDS,
  CONFIRMATION_ACTIONS,
  ConfirmationStart,
  isConfirmationAction,
  PasskeyConfirmations,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './passkey-confirmations.service';
import { PasskeysService } from '../passkeys.service';
import { invalidBody } from '../passkeys.errors';

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

/**
 * The target fields `action` needs, each of the right type; other fields are ignored. A change
 * digest is read by the action's registered check (client_settings.update: its `settings`).
 */
function parseTarget(
  action: ConfirmationAction,
  body: Record<string, unknown>,
  digest: ((body: Record<string, unknown>) => string) | undefined,
): ConfirmationTarget {
  const target: ConfirmationTarget = {};
  for (const field of ACTION_TARGET_FIELDS[action]) {
    const value = body[field];
    if (field === 'changeDigest') {
      if (!digest) throw new Error(`${action}: its target check reads no change digest`);
      target.changeDigest = digest(body);
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
 * Starting a confirmation answers like the operation itself would: 400 for a missing or
 * mistyped target field, then the check the owner of the target registered (404 for an
 * application without a role or a target that is not there, 403 for a role below what the
 * action needs), then 409 when the user has no passkey. The passkeys' own actions are checked
 * here; the others by the modules that perform them (ConfirmationTargetRegistry).
 */
@Injectable()
export class ConfirmationTargets implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly passkeys: PasskeysService,
    private readonly confirmations: PasskeyConfirmations,
  ) {}

  onModuleInit(): void {
    this.registry.register('passkey.register', { check: () => Promise.resolve() });
    this.registry.register('passkey.remove', {
      check: async (actor: ConsoleActor, target: ConfirmationTarget) => {
        await this.passkeys.get(actor.user.id, target.passkeyId!);
      },
    });
  }

  async begin(actor: ConsoleActor, body: unknown): Promise<ConfirmationStart> {
    if (!isObject(body) || !isConfirmationAction(body.action)) {
      throw invalidBody(`action must be one of ${CONFIRMATION_ACTIONS.join(', ')}`);
    }
    const check = this.registry.checkOf(body.action);
    const target = parseTarget(body.action, body, check.digest);
    await check.check(actor, target);
    return this.confirmations.begin(actor.user.id, body.action, target);
  }
}
