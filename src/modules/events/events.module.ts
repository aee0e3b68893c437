import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthEvent } from './event.entity';
import { EventsService } from './events.service';

@Module({
  imports: [TypeOrmModule.forFeature([AuthEvent])],
  providers: [EventsService],
  exports: [EventsService],
})
export class EventsModule {}
