import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../modules/applications/applications.module';
import { KeysModule } from '../modules/keys/keys.module';
import { UsersModule } from '../modules/users/users.module';
import { AdminCommands } from './admin-commands';
import { AdminSocketServer } from './admin-socket';

@Module({
  imports: [ApplicationsModule, KeysModule, UsersModule],
  providers: [AdminCommands, AdminSocketServer],
})
export class AdminModule {}
