import { Module } from '@nestjs/common';
import { PurgeScheduler } from './purge.scheduler';
import { PurgeService } from './purge.service';

/** Housekeeping jobs: the scheduled purge of expired OAuth rows (docs/oauth.md, "Purge"). */
@Module({
  providers: [PurgeService, PurgeScheduler],
})
export class MaintenanceModule {}
