import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes, ScopesCheckedByHandler } from '../keys/auth.decorators';
import { AppUsersService } from '../users/app-users.service';
import { requiredScopes, toUserChange, UserPatch } from '../users/user-patch';
import { PathUserId, UserListQuery } from '../users/user-query';
import { RevocationResult, UserPage, UserView } from '../users/user-view';
import { AppApiRoute, InvalidQuery, UserIdParam } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: true })
@Controller('api/v1/app/users')
export class UsersController {
  constructor(private readonly users: AppUsersService) {}

  /** GET /users: filtered page, ordered by user id ascending (docs/users-api.md). */
  @Get()
  @RequireScopes('user:read')
  @ApiOperation({ summary: "The application's users, by user id ascending (scope user:read)" })
  @InvalidQuery()
  @ApiOkResponse({ type: UserPage })
  listUsers(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: UserListQuery): Promise<UserPage> {
    return this.users.list(ctx.applicationId, query);
  }

  @Get(':userId')
  @RequireScopes('user:read')
  @ApiOperation({ summary: 'One user of the application (scope user:read)' })
  @UserIdParam()
  @ApiOkResponse({ type: UserView })
  getUser(@CurrentApiKey() ctx: ApiKeyContext, @PathUserId() userId: string): Promise<UserView> {
    return this.users.get(ctx.applicationId, userId);
  }

  /**
   * Scopes depend on the fields sent (docs/contract/users.md#patch-usersuserid), so they are checked here, before any
   * write: after the id (PathUserId) and the body's shape (the global pipe), before the group's
   * value, in the order of docs/errors.md.
   */
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
  @ApiOkResponse({ type: UserView })
  updateUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @PathUserId() userId: string,
    @Body() patch: UserPatch,
  ): Promise<UserView> {
    ctx.assertScopes(...requiredScopes(patch));
    return this.users.update(ctx.applicationId, userId, toUserChange(patch));
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
    @PathUserId() userId: string,
  ): Promise<RevocationResult> {
    return this.users.revoke(ctx.applicationId, userId);
  }
}
