import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller';
import { MeController } from './me.controller';

/** The /api/v1/app controllers: thin, delegating to the feature modules. */
@Module({
  controllers: [MeController, GroupsController],
})
export class AppApiModule {}
