import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../../common/http/openapi-security';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes } from '../keys/auth.decorators';
import { StatsService } from '../stats/stats.service';
import { StatsView } from '../stats/stats-view';

@ApiTags('application API')
@ApiKeyAuth()
@Controller('api/v1/app/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @RequireScopes('stats:read')
  @ApiOkResponse({ type: StatsView })
  getStats(@CurrentApiKey() ctx: ApiKeyContext): Promise<StatsView> {
    return this.stats.forApplication(ctx.applicationId);
  }
}
