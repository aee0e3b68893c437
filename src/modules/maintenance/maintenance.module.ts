import { Module } from '@nestjs/common';
import { EventPartitionsService } from './event-partitions.service';
import { PurgeScheduler } from './purge.scheduler';
import { PurgeService } from './purge.service';

/**
 * Housekeeping jobs: the scheduled purge of expired OAuth rows (docs/oauth.md, "Purge") and the
 * monthly partitions of events with their retention (docs/operations.md).
 */
@Module({
  providers: [PurgeService, EventPartitionsService, PurgeScheduler],
})
export class MaintenanceModule {}
