import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthEvent } from './event.entity';
import { EventFeedService } from './event-feed.service';
import { EventsService } from './events.service';

@Module({
  imports: [TypeOrmModule.forFeature([AuthEvent])],
  providers: [EventsService, EventFeedService],
  exports: [EventsService, EventFeedService],
})
export class EventsModule {}
