import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ClientAuth } from '../../../common/http/openapi-security';
import type { OAuthErrorCode } from '../protocol/oauth-error';
import { OAUTH_SCOPES } from '../protocol/scopes';
import type { TokenResponse } from './token-issuer';

// Documentation of POST /api/oauth2/token only (docs/contract/oauth.md#token-endpoint; RFC 6749 sections
// 4.1.3, 5, 6; RFC 7636). The endpoint reads the form itself (token.service.ts and rules/), so
// these classes describe it and validate nothing.

const SCOPE_TEXT = `Space-separated list of ${OAUTH_SCOPES.join(', ')}`;

/** Form fields of client_secret_post and of a `none` client (docs/contract/oauth.md#token-endpoint). */
class ClientCredentialFields {
  @ApiPropertyOptional({
    description:
      'client_secret_post and `none` clients: the client id. With HTTP Basic it may be omitted; if sent it must equal the Basic one.',
  })
  client_id?: string;

  @ApiPropertyOptional({
    description:
      'client_secret_post only: the client secret. Never together with HTTP Basic (invalid_request); a `none` client must not send one (invalid_client).',
  })
  client_secret?: string;
}

/** grant_type=authorization_code (RFC 6749 section 4.1.3, RFC 7636 section 4.5). */
export class AuthorizationCodeGrantForm extends ClientCredentialFields {
  @ApiProperty({ enum: ['authorization_code'] }) grant_type!: 'authorization_code';

  @ApiProperty({ description: 'The code from the authorization redirect; single use' })
  code!: string;

  @ApiProperty({
    description: 'Exactly the redirect_uri of the authorization request',
    format: 'uri',
  })
  redirect_uri!: string;

  @ApiPropertyOptional({
    description:
      'PKCE verifier (RFC 7636): required when the authorization request sent a code_challenge, which `none` clients must; refused for a code issued without one',
    minLength: 43,
    maxLength: 128,
    pattern: '^[A-Za-z0-9\\-._~]{43,128}$',
  })
  code_verifier?: string;
}

/** grant_type=refresh_token (RFC 6749 section 6): the refresh token rotates on every use. */
export class RefreshTokenGrantForm extends ClientCredentialFields {
  @ApiProperty({ enum: ['refresh_token'] }) grant_type!: 'refresh_token';

  @ApiProperty({
    description:
      'The latest refresh token of the family; presenting a rotated one revokes the whole family (unless the same client presents it within REFRESH_TOKEN_REUSE_SECONDS of its rotation: a fresh pair)',
  })
  refresh_token!: string;

  @ApiPropertyOptional({
    description: `${SCOPE_TEXT}; may narrow the granted scope, never widen it (invalid_scope); other values are ignored, and a scope naming none of these keeps the granted one`,
  })
  scope?: string;
}

/** The token response (docs/contract/oauth.md#token-response; RFC 6749 section 5.1). */
export class TokenResponseView implements TokenResponse {
  @ApiProperty({ description: 'Opaque bearer token for the user endpoints' })
  access_token!: string;

  @ApiProperty({ enum: ['bearer'] }) token_type!: 'bearer';

  @ApiProperty({ type: 'integer', description: 'Lifetime of the access token in seconds' })
  expires_in!: number;

  @ApiProperty({ description: 'Opaque; single use, exchanged for a new pair at this endpoint' })
  refresh_token!: string;

  @ApiProperty({ description: `${SCOPE_TEXT}: what the tokens grant`, example: 'read' })
  scope!: string;

  @ApiPropertyOptional({
    description:
      'Only when the scope contains openid: RS256 id_token (OIDC Core 3.1.3.3), also on refresh',
  })
  id_token?: string;
}

/** The error codes the OAuth JSON endpoints answer with (docs/oauth.md). */
const JSON_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_token',
  'insufficient_scope',
  'server_error',
  'temporarily_unavailable',
] as const satisfies readonly OAuthErrorCode[];

/** RFC 6749 section 5.2 / RFC 6750 section 3.1 error body of the token and user endpoints. */
export class OAuthErrorBody {
  @ApiProperty({ enum: JSON_ERROR_CODES }) error!: string;
  @ApiProperty({ description: 'Human-readable text; never secrets or internal detail' })
  error_description!: string;
}

const NO_STORE = {
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
  Pragma: { description: 'no-cache', schema: { type: 'string' } },
};

/** An OAuth error response with the codes it may carry at this endpoint. */
export const oauthError = (
  status: number,
  codes: string,
  headers: Record<string, { description: string; schema: { type: 'string' } }> = {},
): MethodDecorator & ClassDecorator =>
  ApiResponse({
    status,
    description: codes,
    type: OAuthErrorBody,
    headers: { ...NO_STORE, ...headers },
  });

/** Errors every OAuth JSON endpoint may answer (the database, a refused body). */
export const OAuthServerErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    oauthError(500, 'server_error (logged with the request id)'),
    oauthError(503, 'temporarily_unavailable: the database cannot be reached', {
      'Retry-After': { description: 'Seconds (5)', schema: { type: 'string' } },
    }),
  );

/** Everything the OpenAPI document says about POST /api/oauth2/token. */
export const TokenEndpointDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Token endpoint: exchange a code or a refresh token',
      description:
        '`application/x-www-form-urlencoded` only, at most 32 kB. A `secret` client authenticates with HTTP Basic (client_secret_basic) or the form fields client_id and client_secret (client_secret_post), never both; a `none` client sends client_id only and must use PKCE. Codes are single use: presenting one again answers invalid_grant and revokes the tokens issued from it. Refresh tokens rotate: the response carries a new one, and presenting a rotated one answers invalid_grant and revokes its family, except within REFRESH_TOKEN_REUSE_SECONDS (default 10) of its first rotation, when the same client gets a fresh pair of the same family (concurrent refresh from two tabs).',
    }),
    ClientAuth(),
    ApiExtraModels(AuthorizationCodeGrantForm, RefreshTokenGrantForm),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      required: true,
      schema: {
        oneOf: [
          { $ref: getSchemaPath(AuthorizationCodeGrantForm) },
          { $ref: getSchemaPath(RefreshTokenGrantForm) },
        ],
        discriminator: {
          propertyName: 'grant_type',
          mapping: {
            authorization_code: getSchemaPath(AuthorizationCodeGrantForm),
            refresh_token: getSchemaPath(RefreshTokenGrantForm),
          },
        },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'Tokens issued',
      type: TokenResponseView,
      headers: NO_STORE,
    }),
    oauthError(
      400,
      'invalid_request (missing or repeated parameter, not a form, Basic and form secret both sent), invalid_grant (unknown, expired, spent or replayed code or refresh token; redirect_uri or code_verifier mismatch; user disabled or authorization revoked), unauthorized_client (application disabled), unsupported_grant_type, invalid_scope (refresh widening the scope)',
    ),
    oauthError(401, 'invalid_client: unknown client, wrong or missing secret', {
      'WWW-Authenticate': {
        description: 'Basic realm="oauth2", charset="UTF-8"',
        schema: { type: 'string' },
      },
    }),
    oauthError(413, 'invalid_request: the form is larger than 32 kB'),
    OAuthServerErrors(),
  );
