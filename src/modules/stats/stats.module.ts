import { Module } from '@nestjs/common';
import { StatsService } from './stats.service';

/** Aggregates of an application's relations and events (spec section 2, Stats). */
@Module({
  providers: [StatsService],
  exports: [StatsService],
})
export class StatsModule {}
