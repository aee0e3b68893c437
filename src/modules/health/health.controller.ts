import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ShutdownState } from '../../common/http/shutdown-state';
import { Public } from '../../common/http/public.decorator';
import { LimiterStore } from '../rate-limit/limiter-store';

@ApiTags('operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly limiterStore: LimiterStore,
    private readonly shutdown: ShutdownState,
  ) {}

  /** Liveness: the process answers. Checks nothing else, so a database outage never restarts it. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: the database answers a ping within a second; otherwise 503 with
   * `error.database.status = "down"` (terminus's body, kept rather than the generic 503 of the
   * global filter). Redis is reported but does not gate readiness: the limiter fails open
   * without it (docs/adr/0002), and pulling every instance out of the load balancer would turn
   * a limiter outage into a full outage. From SIGTERM on, 503 with
   * `error.shutdown.status = "down"` without asking the database: the balancer must stop sending
   * before the listener closes (docs/adr/0004).
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    if (this.shutdown.shuttingDown) {
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      return SHUTTING_DOWN;
    }
    const result = await this.checkDatabase();
    if (result.status !== 'ok') res.status(HttpStatus.SERVICE_UNAVAILABLE);
    const redisUp = await this.limiterStore.pingRedis();
    if (redisUp === undefined) return result;
    const redis = {
      status: redisUp ? ('up' as const) : ('down' as const),
      rateLimiterStorage: this.limiterStore.mode,
      gatesReadiness: false,
    };
    return { ...result, details: { ...result.details, redis } };
  }

  private async checkDatabase(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.db.pingCheck('database', { timeout: 1000 })]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        return error.getResponse() as HealthCheckResult;
      }
      throw error;
    }
  }
}

const SHUTTING_DOWN: HealthCheckResult = {
  status: 'error',
  info: {},
  error: { shutdown: { status: 'down' } },
  details: { shutdown: { status: 'down' } },
};
