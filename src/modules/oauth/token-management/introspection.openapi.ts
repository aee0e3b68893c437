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
import { TokenHintForm, TokenRequestErrors } from './revocation.openapi';

// Documentation of POST /api/oauth2/introspect (RFC 7662). IntrospectionService builds the body.

/** RFC 7662 section 2.2; every field but `active` is present only when it is true. */
export class IntrospectionView {
  @ApiProperty({ description: 'False for anything unknown, expired, revoked or another client’s' })
  active!: boolean;

  @ApiPropertyOptional({ description: 'Space-separated scopes', example: 'read' }) scope?: string;
  @ApiPropertyOptional({ description: 'The calling client' }) client_id?: string;
  @ApiPropertyOptional({ description: 'User id, as a string' }) sub?: string;
  @ApiPropertyOptional() username?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Expiry, seconds since the epoch' })
  exp?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Issue time, seconds since the epoch' })
  iat?: number;
  @ApiPropertyOptional({ enum: ['bearer', 'DPoP', 'refresh_token'] }) token_type?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'PUBLIC_BASE_URL' }) iss?: string;
  @ApiPropertyOptional({ description: 'The client id the token was issued to' }) aud?: string;
  @ApiPropertyOptional({
    description:
      'A DPoP-bound access token’s confirmation (RFC 9449 section 6.2): `{"jkt": <JWK SHA-256 thumbprint>}`; the proof sent to the resource must be signed by that key',
    example: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' },
  })
  cnf?: { jkt: string };
}

export const IntrospectionDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Introspect an access or refresh token (RFC 7662)',
      description:
        'For resource servers: only `secret` clients (HTTP Basic or client_secret_post), and only tokens issued to the calling client. A token is active when it is neither revoked, rotated out nor expired, the application is enabled and the user’s access stands (the conditions of userinfo). Anything else is exactly `{"active": false}`.',
    }),
    ClientAuth(),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({ required: true, type: TokenHintForm }),
    ApiResponse({
      status: 200,
      type: IntrospectionView,
      headers: {
        'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
        Pragma: { description: 'no-cache', schema: { type: 'string' } },
      },
    }),
    TokenRequestErrors(),
  );
