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
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../../common/http/openapi-security';
import type { RawQuery } from '../../common/http/query-params';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes, ScopesCheckedByHandler } from '../keys/auth.decorators';
import { AppUsersService } from '../users/app-users.service';
import { parsePatchShape, requiredScopes, toUserPatch, UserPatch } from '../users/user-patch';
import { parseUserId, parseUserListQuery } from '../users/user-query';
import { RevocationResult, UserPage, UserView } from '../users/user-view';

@ApiTags('application API')
@ApiKeyAuth()
@Controller('api/v1/app/users')
export class UsersController {
  constructor(private readonly users: AppUsersService) {}

  /** GET /users: filtered page, ordered by user id ascending (docs/users-api.md). */
  @Get()
  @RequireScopes('user:read')
  @ApiOkResponse({ type: UserPage })
  listUsers(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: RawQuery): Promise<UserPage> {
    return this.users.list(ctx.applicationId, parseUserListQuery(query));
  }

  @Get(':userId')
  @RequireScopes('user:read')
  @ApiOkResponse({ type: UserView })
  getUser(@CurrentApiKey() ctx: ApiKeyContext, @Param('userId') id: string): Promise<UserView> {
    return this.users.get(ctx.applicationId, parseUserId(id));
  }

  /** Scopes depend on the fields sent (spec section 5), so they are checked here, before any write. */
  @Patch(':userId')
  @ScopesCheckedByHandler('user:write', 'group:write')
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
  @ApiOkResponse({ type: RevocationResult })
  revokeUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Param('userId') id: string,
  ): Promise<RevocationResult> {
    return this.users.revoke(ctx.applicationId, parseUserId(id));
  }
}
