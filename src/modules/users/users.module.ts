import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEmail } from './user-email.entity';
import { User } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, UserEmail])],
  providers: [UsersService],
  exports: [UsersService],
})
export class UsersModule {}
