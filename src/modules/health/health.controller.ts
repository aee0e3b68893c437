import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Public } from '../keys/auth.decorators';
import { LimiterStore } from '../rate-limit/limiter-store';

@ApiTags('operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly limiterStore: LimiterStore,
  ) {}

  /** Liveness: the process answers. Checks nothing else, so a database outage never restarts it. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: the database answers a ping within a second. Redis is reported but does not
   * gate readiness: the limiter fails open without it (docs/adr/0002), and pulling every
   * instance out of the load balancer would turn a limiter outage into a full outage.
   */
  @Get('ready')
  @HealthCheck()
  async ready(): Promise<HealthCheckResult> {
    const result = await this.health.check([
      () => this.db.pingCheck('database', { timeout: 1000 }),
    ]);
    const redisUp = await this.limiterStore.pingRedis();
    if (redisUp === undefined) return result;
    const redis = {
      status: redisUp ? ('up' as const) : ('down' as const),
      rateLimiterStorage: this.limiterStore.mode,
      gatesReadiness: false,
    };
    return { ...result, details: { ...result.details, redis } };
  }
}
