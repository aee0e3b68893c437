import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRecovery } from './account-recovery';
import { EventsModule } from '../events/events.module';
import { TokensModule } from '../tokens/tokens.module';
import { AppUsersRepository } from './app-users.repository';
import { AppUsersService } from './app-users.service';
import { RelationActivity } from './relation-activity';
import { SeedService } from './seed.service';
import { UserEmail } from './user-email.entity';
import { User } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, UserEmail]), EventsModule, TokensModule],
  providers: [
    UsersService,
    AppUsersRepository,
    AppUsersService,
    SeedService,
    RelationActivity,
    AccountRecovery,
  ],
  exports: [UsersService, AppUsersService, SeedService, RelationActivity, AccountRecovery],
})
export class UsersModule {}
