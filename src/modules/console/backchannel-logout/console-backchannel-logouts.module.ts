import { Module } from '@nestjs/common';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleBackchannelLogoutsController } from './console-backchannel-logouts.controller';
import { ConsoleBackchannelLogouts } from './console-backchannel-logouts.service';

/** The back-channel logouts list of the Settings tab. */
@Module({
  imports: [ConsoleSessionModule, ConsoleRolesModule],
  controllers: [ConsoleBackchannelLogoutsController],
  providers: [ConsoleBackchannelLogouts],
})
export class ConsoleBackchannelLogoutsModule {}
