import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Application } from '../applications/application.entity';
import { OAuthModule } from '../oauth/oauth.module';
import { SessionsModule } from '../sessions/sessions.module';
import { PendingInteractions } from './pending-interactions';

/**
 * The one seam between the pages of the interaction module and the protocol: PendingInteractions
 * reaches the pending authorization request, its application and its continuation through
 * OAuthModule's exports. Every page module that shows a step of an authorization imports this.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Application]),
    OAuthModule, // the pending request, its continuation after a sign-in
    SessionsModule, // the signed-in user; CSRF
  ],
  providers: [PendingInteractions],
  exports: [PendingInteractions],
})
export class PendingInteractionsModule {}
