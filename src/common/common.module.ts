import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';

/** Global providers, injected anywhere without an import: the Clock (tests replace it). */
@Module({})
export class CommonModule {
  static forRoot(): DynamicModule {
    return { module: CommonModule, global: true, providers: [Clock], exports: [Clock] };
  }
}
