import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { pageLanguage } from '../../../common/i18n/page-language';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { ConsoleWebController } from './console-web.controller';

/**
 * The console's web pages and browser assets; the data comes from the console JSON API, except
 * the configured upstream providers' ids and names, which the account page carries.
 */
@Module({ imports: [UpstreamProvidersModule], controllers: [ConsoleWebController] })
export class ConsoleWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // The pages speak the visitor's language: the switcher's cookie, then Accept-Language.
    consumer.apply(cookieParser(), pageLanguage).forRoutes(ConsoleWebController);
  }
}
