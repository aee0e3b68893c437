import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { UsersModule } from '../users/users.module';
import { StatsService } from './stats.service';

/**
 * Aggregates of an application's relations and events (docs/contract/stats.md#fields), read through
 * the modules that own those tables.
 */
@Module({
  imports: [UsersModule, EventsModule],
  providers: [StatsService],
  exports: [StatsService],
})
export class StatsModule {}
