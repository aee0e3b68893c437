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
import type { PushedAuthorizationResponse } from './par.service';

// Documentation of POST /oauth2/par (RFC 9126). PushedAuthorizationService reads the form
// itself; these classes describe it and validate nothing.

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' as const } },
  Pragma: { description: 'no-cache', schema: { type: 'string' as const } },
};

/** The codes of RFC 9126 section 2.3: the token endpoint's and the authorization request's. */
const PAR_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'request_not_supported',
  'server_error',
  'temporarily_unavailable',
] as const satisfies readonly OAuthErrorCode[];

export class PushedAuthorizationErrorBody {
  @ApiProperty({ enum: PAR_ERROR_CODES }) error!: string;
  @ApiProperty({ description: 'Human-readable text; never secrets or internal detail' })
  error_description!: string;
}

const parError = (status: number, codes: string, headers = {}): MethodDecorator =>
  ApiResponse({
    status,
    description: codes,
    type: PushedAuthorizationErrorBody,
    headers: { ...NO_STORE, ...headers },
  });

/** RFC 9126 section 2.1: the authorization request's parameters plus client authentication. */
export class PushedAuthorizationForm extends TokenRequestClientFields {
  @ApiProperty({ enum: ['code'] }) response_type!: string;
  @ApiProperty({ description: 'One of the client’s registered redirect URIs, exactly' })
  redirect_uri!: string;

  @ApiPropertyOptional() scope?: string;
  @ApiPropertyOptional() state?: string;
  @ApiPropertyOptional({ description: 'S256 challenge; required of `none` clients' })
  code_challenge?: string;

  @ApiPropertyOptional({ enum: ['S256'] }) code_challenge_method?: string;
  @ApiPropertyOptional({
    description:
      'And every other parameter of /oauth2/authorize (nonce, prompt, max_age, claims, ui_locales, …), checked as there. request_uri is refused (invalid_request), request too (request_not_supported).',
  })
  nonce?: string;
}

export class PushedAuthorizationView implements PushedAuthorizationResponse {
  @ApiProperty({
    example: 'urn:ietf:params:oauth:request_uri:Jx3kq0nFfYz6n5cG1pQw8aVb2sR4tU7yX9zA0bC1dE2',
    description:
      'Single use, for this client only: send it with client_id to /oauth2/authorize (other parameters there are ignored)',
  })
  request_uri!: string;

  @ApiProperty({ example: 60, description: 'Seconds (PAR_REQUEST_URI_TTL_SECONDS)' })
  expires_in!: number;
}

export const PushedAuthorizationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Pushed authorization request (RFC 9126)',
      description:
        '`application/x-www-form-urlencoded`, at most 32 kB. The client authenticates as at the token endpoint (a `none` client by client_id alone); the authorization request is checked exactly as /oauth2/authorize checks it, and every refusal is JSON, never a redirect. The answer names a request_uri that /oauth2/authorize takes once, with the client_id, within expires_in seconds.',
    }),
    ClientAuth(),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({ required: true, type: PushedAuthorizationForm }),
    ApiResponse({
      status: 201,
      type: PushedAuthorizationView,
      description: 'Stored for one use',
      headers: NO_STORE,
    }),
    parError(
      400,
      'invalid_request (a parameter missing, repeated or malformed, request_uri sent, redirect_uri missing or not registered, not a form), unsupported_response_type, invalid_scope, request_not_supported (a request object), unauthorized_client (application disabled)',
    ),
    parError(401, 'invalid_client: unknown client, wrong or missing secret', {
      'WWW-Authenticate': {
        description: 'Basic realm="oauth2", charset="UTF-8"',
        schema: { type: 'string' as const },
      },
    }),
    parError(413, 'invalid_request: the form is larger than 32 kB'),
    parError(
      429,
      'invalid_request: PAR_MAX_PENDING_PER_CLIENT requests of this client are waiting (docs/security.md)',
    ),
    OAuthServerErrors(),
  );
