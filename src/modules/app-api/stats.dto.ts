import { ApiProperty } from '@nestjs/swagger';

export class DailyAuthCountDto {
  @ApiProperty({ example: '2026-01-31', description: 'UTC day, YYYY-MM-DD' }) date!: string;
  @ApiProperty() count!: number;
}

/** Spec section 2, Stats; definitions in docs/stats.md. */
export class StatsDto {
  @ApiProperty() totalUsers!: number;
  @ApiProperty() totalAuths!: number;
  @ApiProperty() activeUsers30d!: number;
  @ApiProperty() newUsers30d!: number;
  @ApiProperty({ type: [DailyAuthCountDto], description: '30 UTC days, most recent first' })
  dailyAuthCounts!: DailyAuthCountDto[];
}
