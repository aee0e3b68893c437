import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../../common/http/openapi-security';
import { NoScopes } from '../keys/auth.decorators';
import { describeGroup, GROUP_CODES, GROUPS_NOTE, impliedGroups } from '../users/groups';
import { GroupsResponse } from './groups.dto';

@ApiTags('application API')
@ApiKeyAuth()
@Controller('api/v1/app')
export class GroupsController {
  /** GET /groups: the eight groups with inheritance expanded; no scope needed (spec 4.1). */
  @Get('groups')
  @NoScopes()
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
