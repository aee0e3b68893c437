import { Module } from '@nestjs/common';
import { UpstreamAccountModule } from './account/upstream-account.module';
import { UpstreamSignInModule } from './sign-in/upstream-sign-in.module';

/**
 * Sign-in through upstream identity providers (docs/upstreams.md), as the application mounts it:
 * the routes of the sign-in and of the console's account page. The providers and identities
 * modules they import are also imported on their own by oauth (login page, userinfo), the
 * console and the CLI.
 */
@Module({
  imports: [UpstreamSignInModule, UpstreamAccountModule],
})
export class UpstreamsModule {}
