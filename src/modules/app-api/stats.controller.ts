import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes } from '../keys/auth.decorators';
import { StatsService } from '../stats/stats.service';
import { StatsDto } from './stats.dto';

@ApiTags('application API')
@ApiBearerAuth()
@Controller('api/v1/app/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @RequireScopes('stats:read')
  getStats(@CurrentApiKey() ctx: ApiKeyContext): Promise<StatsDto> {
    return this.stats.forApplication(ctx.applicationId);
  }
}
