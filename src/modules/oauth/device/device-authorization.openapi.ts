import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
} from '@nestjs/swagger';
import { ClientAuth } from '../../../common/http/openapi-security';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import { TokenRequestClientFields } from '../token-management/revocation.openapi';
import { OAuthServerErrors } from '../token/token.openapi';
import type { DeviceAuthorizationResponse } from './device-authorization.service';

// Documentation of POST /oauth2/device_authorization (RFC 8628 section 3.1).
// DeviceAuthorizationService reads the form itself; these classes describe it and validate nothing.

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' as const } },
  Pragma: { description: 'no-cache', schema: { type: 'string' as const } },
};

const DEVICE_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
] as const satisfies readonly OAuthErrorCode[];

export class DeviceAuthorizationErrorBody {
  @ApiProperty({ enum: DEVICE_ERROR_CODES }) error!: string;
  @ApiProperty({ description: 'Human-readable text; never secrets or internal detail' })
  error_description!: string;
}

const deviceError = (status: number, codes: string, headers = {}): MethodDecorator =>
  ApiResponse({
    status,
    description: codes,
    type: DeviceAuthorizationErrorBody,
    headers: { ...NO_STORE, ...headers },
  });

/** RFC 8628 section 3.1: scope, plus client authentication as at the token endpoint. */
export class DeviceAuthorizationForm extends TokenRequestClientFields {
  @ApiPropertyOptional({
    description:
      'Space-separated scopes of openid, read, profile, email; absent: read. Any other value is invalid_scope.',
  })
  scope?: string;
}

export class DeviceAuthorizationView implements DeviceAuthorizationResponse {
  @ApiProperty({
    description: '256 random bits (base64url), for the token endpoint; stored only as SHA-256',
  })
  device_code!: string;

  @ApiProperty({
    example: 'BCDF-GHJK',
    description:
      '8 letters of BCDFGHJKLMNPQRSTVWXZ, shown with a dash; typed case-, dash- and space-insensitively',
  })
  user_code!: string;

  @ApiProperty({ example: 'https://id.example.com/device' })
  verification_uri!: string;

  @ApiProperty({
    example: 'https://id.example.com/device?user_code=BCDF-GHJK',
    description: 'Only fills the form of the device page; the person still confirms',
  })
  verification_uri_complete!: string;

  @ApiProperty({ example: 600, description: 'Seconds (DEVICE_CODE_TTL_SECONDS)' })
  expires_in!: number;

  @ApiProperty({
    example: 5,
    description: 'Seconds between polls of the token endpoint; each slow_down adds 5',
  })
  interval!: number;
}

export const DeviceAuthorizationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Device authorization request (RFC 8628)',
      description:
        '`application/x-www-form-urlencoded`. The client authenticates as at the token endpoint (a `none` client by client_id alone) and must be registered for the device authorization grant. The device shows the user_code and verification_uri, then polls the token endpoint with grant_type=urn:ietf:params:oauth:grant-type:device_code (docs/oauth.md, "Device authorization grant").',
    }),
    ClientAuth(),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({ required: true, type: DeviceAuthorizationForm }),
    ApiResponse({
      status: 200,
      type: DeviceAuthorizationView,
      description: 'A device code and its user code',
      headers: NO_STORE,
    }),
    deviceError(
      400,
      'invalid_request (a parameter repeated or malformed, not a form), invalid_scope (a scope this service does not define), unauthorized_client (not registered for the grant, or disabled)',
    ),
    deviceError(401, 'invalid_client: unknown client, wrong or missing secret or assertion', {
      'WWW-Authenticate': {
        description: 'Basic realm="oauth2", charset="UTF-8"',
        schema: { type: 'string' as const },
      },
    }),
    deviceError(
      429,
      'invalid_request: DEVICE_MAX_PENDING_PER_CLIENT codes of this client are waiting (docs/security.md)',
    ),
    OAuthServerErrors(),
  );
