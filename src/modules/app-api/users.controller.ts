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
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { RawQuery } from '../../common/http/query-params';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes, ScopesCheckedByHandler } from '../keys/auth.decorators';
import { AppUsersService } from '../users/app-users.service';
import { parsePatchShape, requiredScopes, toUserPatch } from '../users/user-patch';
import { parseUserId, parseUserListQuery } from '../users/user-query';
import { RevocationResultDto, UserPageDto, UserPatchDto, UserViewDto } from './users.dto';

@ApiTags('application API')
@ApiBearerAuth()
@Controller('api/v1/app/users')
export class UsersController {
  constructor(private readonly users: AppUsersService) {}

  /** GET /users: filtered page, ordered by user id ascending (docs/users-api.md). */
  @Get()
  @RequireScopes('user:read')
  listUsers(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: RawQuery): Promise<UserPageDto> {
    return this.users.list(ctx.applicationId, parseUserListQuery(query));
  }

  @Get(':userId')
  @RequireScopes('user:read')
  getUser(@CurrentApiKey() ctx: ApiKeyContext, @Param('userId') id: string): Promise<UserViewDto> {
    return this.users.get(ctx.applicationId, parseUserId(id));
  }

  /** Scopes depend on the fields sent (spec section 5), so they are checked here, before any write. */
  @Patch(':userId')
  @ScopesCheckedByHandler('user:write', 'group:write')
  @ApiBody({ type: UserPatchDto })
  updateUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Param('userId') id: string,
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
  ): Promise<UserViewDto> {
    const userId = parseUserId(id);
    const shape = parsePatchShape(body, contentType);
    ctx.assertScopes(...requiredScopes(shape));
    return this.users.update(ctx.applicationId, userId, toUserPatch(shape));
  }

  @Post(':userId/revoke')
  @HttpCode(200)
  @RequireScopes('relation:revoke')
  revokeUser(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Param('userId') id: string,
  ): Promise<RevocationResultDto> {
    return this.users.revoke(ctx.applicationId, parseUserId(id));
  }
}
