import { Module } from '@nestjs/common';

/** Filled by a later issue (see docs/architecture.md); no routes yet. */
@Module({})
export class OAuthModule {}
