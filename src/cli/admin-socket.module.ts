import { Module } from '@nestjs/common';
import { AdminCommandsModule } from './admin-commands.module';
import { AdminSocketServer } from './admin-socket';

/** The service's side of the admin socket: runs the CLI's commands while it owns the data dir. */
@Module({
  imports: [AdminCommandsModule],
  providers: [AdminSocketServer],
})
export class AdminSocketModule {}
