import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { RawQuery } from '../../common/http/query-params';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes, ScopesCheckedByHandler } from '../keys/auth.decorators';
import { AppUsersService } from '../users/app-users.service';
import { parsePatchShape, requiredScopes, toUserPatch, UserPatch } from '../users/user-patch';
import { parseUserId, parseUserListQuery } from '../users/user-query';
import { RevocationResult, UserPage, UserView } from '../users/user-view';
import { AppApiRoute, UserIdParam, UserListQueryDocs } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: true })
@Controller('api/v1/app/users')
export class UsersController {
  constructor(private readonly users: AppUsersService) {}

  /** GET /users: filtered page, ordered by user id ascending (docs/users-api.md). */
  @Get()
  @RequireScopes('user:read')
  @ApiOperation({ summary: "The application's users, by user id ascending (scope user:read)" })
  @UserListQueryDocs()
  @ApiOkResponse({ type: UserPage })
  listUsers(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: RawQuery): Promise<UserPage> {
    return this.users.list(ctx.applicationId, parseUserListQuery(query));
  }

  @Get(':userId')
  @RequireScopes('user:read')
  @ApiOperation({ summary: 'One user of the application (scope user:read)' })
  @UserIdParam()
  @ApiOkResponse({ type: UserView })
  getUser(@CurrentApiKey() ctx: ApiKeyContext, @Param('userId') id: string): Promise<UserView> {
    return this.users.get(ctx.applicationId, parseUserId(id));
  }

  /** Scopes depend on the fields sent (spec section 5), so they are checked here, before any write. */
  @Patch(':userId')
  @ScopesCheckedByHandler('user:write', 'group:write')
  @ApiOperation({
    summary: "Change a user's group or enabled flag",
    description:
      "Scope user:write for `enabled`, group:write for `group`, both when both are sent. `enabled: false` revokes all of the user's OAuth tokens for the application. Checks in the order of docs/errors.md.",
  })
  @UserIdParam(
    'invalid_body (not a JSON object, wrong field type), unknown_field (body adds fields), empty_body, invalid_group',
  )
  @ApiBody({ type: UserPatch })
  @ApiOkResponse({ type: UserView })
  updateUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Param('userId') id: string,
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
  ): Promise<UserView> {
    const userId = parseUserId(id);
    const shape = parsePatchShape(body, contentType);
    ctx.assertScopes(...requiredScopes(shape));
    return this.users.update(ctx.applicationId, userId, toUserPatch(shape));
  }

  @Post(':userId/revoke')
  @HttpCode(200)
  @RequireScopes('relation:revoke')
  @ApiOperation({
    summary: "Force a user offline: revoke all of the user's OAuth tokens (scope relation:revoke)",
  })
  @UserIdParam()
  @ApiOkResponse({ type: RevocationResult })
  revokeUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Param('userId') id: string,
  ): Promise<RevocationResult> {
    return this.users.revoke(ctx.applicationId, parseUserId(id));
  }
}
