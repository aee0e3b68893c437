import { Module } from '@nestjs/common';
import { ConsoleWebController } from './console-web.controller';

/** The console's web pages and browser assets; the data comes from the console JSON API. */
@Module({ controllers: [ConsoleWebController] })
export class ConsoleWebModule {}
