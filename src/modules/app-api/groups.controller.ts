import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NoScopes } from '../keys/auth.decorators';
import { describeGroup, GROUP_CODES, GROUPS_NOTE, impliedGroups } from '../users/groups';
import { GroupsResponse } from './groups.dto';
import { AppApiRoute } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: false })
@Controller('api/v1/app')
export class GroupsController {
  /** GET /groups: the eight groups with inheritance expanded; no scope needed (docs/contract/api-keys.md#scopes). */
  @Get('groups')
  @NoScopes()
  @ApiOperation({ summary: 'The eight groups with their inheritance expanded' })
  @ApiOkResponse({ type: GroupsResponse })
  listGroups(): GroupsResponse {
    return {
      items: GROUP_CODES.map((code) => ({
        code,
        description: describeGroup(code),
        impliedGroups: impliedGroups(code),
      })),
      note: GROUPS_NOTE,
    };
  }
}
