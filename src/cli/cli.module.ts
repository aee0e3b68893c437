import { DynamicModule, Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../modules/metrics/metrics.module';
import { AdminCommandsModule } from './admin-commands.module';

/**
 * What a CLI command boots when it opens the database itself: configuration, the clock, the
 * database and the commands' feature services, as an application context. No HTTP server,
 * controllers, guards, rate limiter (Redis) or purge scheduler (docs/architecture.md).
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule.forRoot(),
        MetricsModule.off(),
        DatabaseModule,
        AdminCommandsModule,
      ],
    };
  }
}
