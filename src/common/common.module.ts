import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';
import { RouteMetadata } from './http/route-metadata';
import { ShutdownState } from './http/shutdown-state';

/**
 * Global providers, injected anywhere without an import: the Clock (tests replace it), the
 * ShutdownState readiness reads and the guards' RouteMetadata.
 */
@Module({})
export class CommonModule {
  static forRoot(): DynamicModule {
    return {
      module: CommonModule,
      global: true,
      providers: [Clock, ShutdownState, RouteMetadata],
      exports: [Clock, ShutdownState, RouteMetadata],
    };
  }
}
