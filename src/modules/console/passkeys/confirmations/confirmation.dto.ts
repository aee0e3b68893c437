import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsString, ValidateIf } from 'class-validator';
import { CLIENT_AUTH_METHODS } from '../../../applications/application.entity';
import { MEMBER_ROLES } from '../../roles/console-member.entity';
import { IfPresent } from '../../../../common/validation/dto-decorators';
import {
  ACTION_TARGET_FIELDS,
  CONFIRMATION_ACTIONS,
  isConfirmationAction,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './confirmation-actions';

/**
 * Checks a target field only for the actions that take it (docs/console.md, "The confirmation
 * exchange": the other actions' target fields are ignored), with the action in the message.
 */
const CHECKS = {
  'an integer': IsInt,
  'a string': IsString,
  'an object': IsObject,
} as const;

const TargetField = (
  field: keyof ConfirmationTarget,
  type: keyof typeof CHECKS,
): PropertyDecorator =>
  applyDecorators(
    ValidateIf(
      (request: ConfirmationRequest) =>
        isConfirmationAction(request.action) &&
        ACTION_TARGET_FIELDS[request.action].includes(field),
    ),
    CHECKS[type]({
      message: ({ object, property }) =>
        `${(object as ConfirmationRequest).action} needs ${property} (${type})`,
    }),
  );

/**
 * A field the change digest of some actions is read from (by their registered check): checked
 * for those actions only. `optional`: it may be absent (the check decides what is needed).
 */
const DigestField = (
  actions: readonly ConfirmationAction[],
  type: keyof typeof CHECKS,
  optional = false,
): PropertyDecorator =>
  applyDecorators(
    ValidateIf(
      (request: ConfirmationRequest, value: unknown) =>
        actions.includes(request.action) && (!optional || value !== undefined),
    ),
    CHECKS[type]({
      message: ({ object, property }) =>
        `${(object as ConfirmationRequest).action} needs ${property} (${type})`,
    }),
  );

/** client_settings.update: the OAuth client settings the confirmed PATCH will send. */
export class ConfirmedClientSettings {
  @ApiProperty({ required: false, type: [String] }) redirectUris?: string[];
  @ApiProperty({ required: false, type: [String] }) postLogoutRedirectUris?: string[];
  @ApiProperty({ required: false, enum: CLIENT_AUTH_METHODS }) clientAuthMethod?: string;
  @ApiProperty({ required: false, type: Object, additionalProperties: true, nullable: true })
  jwks?: object | null;
  @ApiProperty({ required: false, type: String, nullable: true }) jwksUri?: string | null;
}

/** Body of POST /api/console/confirmations. */
export class ConfirmationRequest {
  @ApiProperty({ enum: CONFIRMATION_ACTIONS })
  @IsIn(CONFIRMATION_ACTIONS, {
    message: `action must be one of ${CONFIRMATION_ACTIONS.join(', ')}`,
  })
  action!: ConfirmationAction;

  @ApiProperty({
    required: false,
    type: 'integer',
    description: 'key.*, client_secret.reset and application.delete: the application',
  })
  @TargetField('applicationId', 'an integer')
  applicationId?: number;

  @ApiProperty({
    required: false,
    type: 'integer',
    description: 'key.rotate, key.revoke, key.delete: the key',
  })
  @TargetField('keyId', 'an integer')
  keyId?: number;

  @ApiProperty({ required: false, format: 'uuid', description: 'passkey.remove: the passkey' })
  @TargetField('passkeyId', 'a string')
  passkeyId?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    description: 'upstream.unbind: the bound upstream account (its id in the account upstreams)',
  })
  @TargetField('upstreamIdentityId', 'an integer')
  upstreamIdentityId?: number;

  @ApiProperty({
    required: false,
    description: 'console_role.grant, console_role.revoke: the user whose console role changes',
  })
  @TargetField('targetUserId', 'a string')
  targetUserId?: string;

  @ApiProperty({
    required: false,
    enum: MEMBER_ROLES,
    description: 'console_role.grant: the role given; console_role.revoke: the role withdrawn',
  })
  @TargetField('role', 'a string')
  role?: string;

  // The settings' own shape is read by the action's registered check (their digest).
  @ApiProperty({
    required: false,
    type: ConfirmedClientSettings,
    description:
      'client_settings.update: exactly the redirectUris, postLogoutRedirectUris, clientAuthMethod, jwks and jwksUri the PATCH of the settings will send (the token is bound to these values)',
  })
  @DigestField(['client_settings.update'], 'an object')
  settings?: ConfirmedClientSettings;

  @ApiProperty({ required: false, description: 'upstream.bind: the provider to bind' })
  @TargetField('providerId', 'a string')
  providerId?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    description:
      'webhook.update_url, webhook.rotate_secret, webhook.delete, webhook.replay: the endpoint',
  })
  @TargetField('webhookId', 'an integer')
  webhookId?: number;

  @ApiProperty({
    required: false,
    description:
      'webhook.create, webhook.update_url: the URL the confirmed request sends (the token is bound to it)',
  })
  @DigestField(['webhook.create', 'webhook.update_url'], 'a string')
  url?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    description: 'webhook.replay: the fromEventId the replay sends (exactly one of the two)',
  })
  @DigestField(['webhook.replay'], 'an integer', true)
  fromEventId?: number;

  @ApiProperty({
    required: false,
    format: 'date-time',
    description: 'webhook.replay: the fromTime the replay sends (exactly one of the two)',
  })
  @DigestField(['webhook.replay'], 'a string', true)
  fromTime?: string;
}

/**
 * Body of POST /api/console/confirmations/{confirmationId}. A missing `response` fails
 * verification like a bad assertion (403, the challenge spent); one that is not an object is a
 * malformed body (400).
 */
export class ConfirmationAnswer {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The AuthenticationResponseJSON of navigator.credentials.get()',
  })
  @IfPresent()
  @IsObject({ message: 'response must be an object' })
  response!: object;
}
