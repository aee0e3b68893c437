import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsString, ValidateBy } from 'class-validator';
import { IfPresent } from '../../../common/validation/dto-decorators';

export const MAX_PASSKEY_NAME_LENGTH = 64;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A passkey name: 1 to 64 characters once trimmed, no control characters. */
const PasskeyName = (): PropertyDecorator =>
  ValidateBy({
    name: 'passkeyName',
    validator: {
      validate: (value: unknown) => {
        const name = typeof value === 'string' ? value.trim() : '';
        return name !== '' && name.length <= MAX_PASSKEY_NAME_LENGTH && !CONTROL.test(name);
      },
      defaultMessage: () => `name must be 1 to ${MAX_PASSKEY_NAME_LENGTH} printable characters`,
    },
  });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The browser's RegistrationResponseJSON, as far as its shape: the library verifies the rest. */
const RegistrationResponse = (): PropertyDecorator =>
  ValidateBy({
    name: 'registrationResponse',
    validator: {
      validate: (value: unknown) =>
        isObject(value) && typeof value.id === 'string' && isObject(value.response),
      defaultMessage: () => 'response must be the RegistrationResponseJSON of the browser',
    },
  });

/** Body of POST /api/console/account/passkeys. */
export class PasskeyRegistration {
  // An unknown, expired or used ceremony (or none) is the ceremony's answer, 400 invalid_request.
  @ApiProperty({ format: 'uuid' })
  @IfPresent()
  @IsString({ message: 'ceremonyId must be a string' })
  ceremonyId!: string;

  @ApiProperty({
    maxLength: MAX_PASSKEY_NAME_LENGTH,
    required: false,
    description: 'Defaults to "Passkey"',
  })
  @IfPresent()
  @PasskeyName()
  name?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The RegistrationResponseJSON of navigator.credentials.create()',
  })
  @RegistrationResponse()
  response!: object;
}

/** Body of PATCH /api/console/account/passkeys/{id}. */
export class PasskeyRename {
  @ApiProperty({ maxLength: MAX_PASSKEY_NAME_LENGTH })
  @PasskeyName()
  name!: string;
}

/**
 * Body of POST /api/console/session/passkey. A field left out is a sign-in that does not
 * verify (401 invalid_credentials), as an unknown ceremony or a bad assertion is; a field of
 * the wrong JSON type is a malformed body (400 invalid_body).
 */
export class PasskeySignIn {
  @ApiProperty({ format: 'uuid' })
  @IfPresent()
  @IsString({ message: 'ceremonyId must be a string' })
  ceremonyId!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The AuthenticationResponseJSON of navigator.credentials.get()',
  })
  @IfPresent()
  @IsObject({ message: 'response must be an object' })
  response!: object;
}
