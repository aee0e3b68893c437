import { DynamicModule, Module } from '@nestjs/common';
import { AppModule } from './app.module';
import { AdminSocketModule } from './cli/admin-socket.module';
import { AppConfig } from './config/app-config';

/**
 * The running service: the HTTP application plus the admin socket through which the CLI hands
 * it commands while it owns the embedded database. AppModule itself knows nothing of the CLI.
 */
@Module({})
export class ServiceModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ServiceModule, imports: [AppModule.forRoot(config), AdminSocketModule] };
  }
}
