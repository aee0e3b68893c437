import { ApiProperty } from '@nestjs/swagger';

/**
 * The response shape of GET /stats, defined once: these classes are both StatsService's return
 * type and, through their decorators, the OpenAPI schema.
 */

export class DailyAuthCount {
  @ApiProperty({ example: '2026-01-31', description: 'UTC day, YYYY-MM-DD' }) date!: string;
  @ApiProperty() count!: number;
}

/** docs/contract/stats.md#fields; each figure is defined in docs/stats.md. */
export class StatsView {
  @ApiProperty() totalUsers!: number;
  @ApiProperty() totalAuths!: number;
  @ApiProperty() activeUsers30d!: number;
  @ApiProperty() newUsers30d!: number;
  @ApiProperty({ type: [DailyAuthCount], description: '30 UTC days, most recent first' })
  dailyAuthCounts!: DailyAuthCount[];
}
