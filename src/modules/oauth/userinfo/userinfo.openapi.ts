import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
} from '@nestjs/swagger';
import { AccessTokenAuth } from '../../../common/http/openapi-security';
import { GROUP_CODES } from '../../users/groups';
import { oauthError, OAuthServerErrors } from '../token/token.openapi';
import type { UserinfoUpstream } from '../../upstreams/identities/userinfo-upstream';
import type { UserEmailEntry, UserInfo } from './userinfo.service';

// Documentation of GET /api/oauth2/userinfo and /api/oauth2/user/emails (docs/contract/oauth.md#user-info;
// RFC 6750). UserinfoService builds the bodies; `implements` keeps these classes in step with it.

/** User info (docs/contract/oauth.md#user-info). */
export class UserInfoView implements UserInfo {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'User id' }) id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'URL' }) avatar!: string;

  @ApiProperty({
    enum: GROUP_CODES,
    isArray: true,
    description: "The user's group in this application with the groups it includes",
  })
  groups!: string[];

  @ApiProperty({
    type: () => [UserinfoUpstreamView],
    description: 'Bound upstream accounts, oldest binding first',
  })
  upstreams!: UserinfoUpstreamView[];
}

/** One bound upstream account: the element shape integrations of the original service declare. */
export class UserinfoUpstreamView implements UserinfoUpstream {
  @ApiProperty({ type: 'integer', description: 'Upstream identity id (the binding)' }) id!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Always null: a provider is named by its string id (upstream_type)',
  })
  upstream_id!: number | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The provider's configured display name (null once its configuration is removed)",
  })
  upstream_name!: string | null;
  @ApiProperty({ description: 'Provider id, as clients name it in upstream_providers' })
  upstream_type!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Always null: no icon is configured',
  })
  upstream_icon!: string | null;
  @ApiProperty({ description: "The provider's stable user id (subject)" })
  upstream_user_id!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Username at the provider' })
  upstream_username!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Email the provider gave at the last sign-in, verified or not',
  })
  upstream_email!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Avatar URL at the provider' })
  upstream_avatar!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "Non-secret profile fields of the provider (e.g. WeChat's unionid); {} when none",
  })
  provider_data!: Record<string, unknown>;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Username at the provider (the same as upstream_username; the earlier name)',
  })
  username!: string | null;
}

/** User email entry (docs/contract/oauth.md#user-emails). */
export class UserEmailView implements UserEmailEntry {
  @ApiProperty() email!: string;
  @ApiProperty() verified!: boolean;
  @ApiProperty() primary!: boolean;
  @ApiProperty({ example: 'public' }) visibility!: string;
}

const BEARER_ERRORS = (): MethodDecorator =>
  applyDecorators(
    oauthError(
      401,
      'invalid_token: no Authorization header, not a Bearer header, or an unknown, expired or revoked token (also when the application, the user in it or the authorization is disabled or revoked)',
      {
        'WWW-Authenticate': {
          description:
            'Bearer realm="oauth2" (no header sent), or Bearer realm="oauth2", error="invalid_token", error_description="…"',
          schema: { type: 'string' },
        },
      },
    ),
    oauthError(403, 'insufficient_scope: the token lacks a scope this endpoint needs', {
      'WWW-Authenticate': {
        description: 'Bearer realm="oauth2", error="insufficient_scope", scope="…"',
        schema: { type: 'string' },
      },
    }),
    OAuthServerErrors(),
  );

/** The form of a userinfo POST (RFC 6750 section 2.2). */
export class UserinfoFormView {
  @ApiPropertyOptional({
    description:
      'The access token, instead of the Authorization header (both at once: invalid_request)',
  })
  access_token?: string;
}

/** `formToken`: the POST, which also takes the token as the form parameter access_token. */
export const UserinfoDocs = (options: { formToken?: boolean } = {}): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "The signed-in user's profile",
      description:
        'Needs an access token with scope `read` or `profile` (or `openid`, docs/oidc.md).' +
        (options.formToken
          ? ' The token goes in the Authorization header or in the form parameter access_token (RFC 6750 section 2.2), not both.'
          : ''),
    }),
    AccessTokenAuth(),
    ApiOkResponse({ type: UserInfoView }),
    ...(options.formToken
      ? [
          ApiConsumes('application/x-www-form-urlencoded'),
          ApiBody({ type: UserinfoFormView, required: false }),
          oauthError(
            400,
            'invalid_request: the token sent both in the Authorization header and in the form, access_token repeated, or a body that is not a form',
          ),
        ]
      : []),
    BEARER_ERRORS(),
  );

export const UserEmailsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "The signed-in user's email addresses, primary first",
      description: 'Needs an access token with scope `read` or `email`.',
    }),
    AccessTokenAuth(),
    ApiOkResponse({ type: UserEmailView, isArray: true }),
    BEARER_ERRORS(),
  );
