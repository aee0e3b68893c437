import { Module } from '@nestjs/common';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { ConsoleWebController } from './console-web.controller';

/**
 * The console's web pages and browser assets; the data comes from the console JSON API, except
 * the configured upstream providers' ids and names, which the account page carries.
 */
@Module({ imports: [UpstreamProvidersModule], controllers: [ConsoleWebController] })
export class ConsoleWebModule {}
