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
import { oauthError, OAuthServerErrors } from '../token/token.openapi';

// Documentation of POST /api/oauth2/revoke (RFC 7009). RevocationService reads the form itself;
// these classes describe it and validate nothing.

const INVALID_CLIENT = {
  'WWW-Authenticate': {
    description: 'Basic realm="oauth2", charset="UTF-8"',
    schema: { type: 'string' as const },
  },
};

/** client_secret_post and `none` clients (RFC 7009 section 2.1, as at the token endpoint). */
export class TokenRequestClientFields {
  @ApiPropertyOptional({
    description:
      'client_secret_post and `none` clients: the client id. With HTTP Basic it may be omitted; if sent it must equal the Basic one.',
  })
  client_id?: string;

  @ApiPropertyOptional({
    description: 'client_secret_post only; never together with HTTP Basic (invalid_request)',
  })
  client_secret?: string;
}

/** RFC 7009 section 2.1 (the same fields as RFC 7662 section 2.1). */
export class TokenHintForm extends TokenRequestClientFields {
  @ApiProperty({ description: 'The access or refresh token' })
  token!: string;

  @ApiPropertyOptional({
    enum: ['access_token', 'refresh_token'],
    description:
      'Where to look first; a wrong hint still finds the token, an unknown value is ignored',
  })
  token_type_hint?: string;
}

/** The 401 and the 400s both endpoints answer before looking at the token. */
export const TokenRequestErrors = (): MethodDecorator =>
  applyDecorators(
    oauthError(
      400,
      'invalid_request (token missing, a parameter repeated, not a form, Basic and form secret both sent), unauthorized_client (application disabled)',
    ),
    oauthError(401, 'invalid_client: unknown client, wrong or missing secret', INVALID_CLIENT),
    oauthError(413, 'invalid_request: the form is larger than 32 kB'),
    OAuthServerErrors(),
  );

export const RevocationDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke an access or refresh token (RFC 7009)',
      description:
        'Client authentication as at the token endpoint (`none` clients send client_id). Revoking a refresh token revokes its whole family (every token issued from the same code); revoking an access token revokes it and the refresh token issued with it. The answer is the same empty 200 whether the token was revoked, unknown, expired, already revoked or issued to another client (which is left untouched).',
    }),
    ClientAuth(),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({ required: true, type: TokenHintForm }),
    ApiResponse({
      status: 200,
      description: 'Empty body: revoked, or nothing of this client to revoke',
      headers: {
        'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
        Pragma: { description: 'no-cache', schema: { type: 'string' } },
      },
    }),
    TokenRequestErrors(),
  );
