import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';
import { ShutdownState } from './http/shutdown-state';

/**
 * Global providers, injected anywhere without an import: the Clock (tests replace it) and the
 * ShutdownState readiness reads.
 */
@Module({})
export class CommonModule {
  static forRoot(): DynamicModule {
    return {
      module: CommonModule,
      global: true,
      providers: [Clock, ShutdownState],
      exports: [Clock, ShutdownState],
    };
  }
}
