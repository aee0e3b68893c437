import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { StatsModule } from '../stats/stats.module';
import { UsersModule } from '../users/users.module';
import { EventsController } from './events.controller';
import { GroupsController } from './groups.controller';
import { MeController } from './me.controller';
import { StatsController } from './stats.controller';
import { UsersController } from './users.controller';

/** The /api/v1/app controllers: thin, delegating to the feature modules. */
@Module({
  imports: [UsersModule, EventsModule, StatsModule],
  controllers: [MeController, GroupsController, UsersController, EventsController, StatsController],
})
export class AppApiModule {}
