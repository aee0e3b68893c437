import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes } from '../keys/auth.decorators';
import { StatsService } from '../stats/stats.service';
import { StatsView } from '../stats/stats-view';
import { AppApiRoute } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: true })
@Controller('api/v1/app/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @RequireScopes('stats:read')
  @ApiOperation({ summary: 'Aggregate statistics of the application (scope stats:read)' })
  @ApiOkResponse({ type: StatsView })
  getStats(@CurrentApiKey() ctx: ApiKeyContext): Promise<StatsView> {
    return this.stats.forApplication(ctx.applicationId);
  }
}
