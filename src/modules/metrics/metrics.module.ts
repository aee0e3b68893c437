import { DynamicModule, Module } from '@nestjs/common';
import { Metrics, NOOP_METRICS } from '../../common/metrics/metrics';
import type { AppConfig } from '../../config/app-config';
import { MetricsServer } from './metrics-server';

/**
 * Prometheus metrics (docs/operations.md, "Metrics"), global: every feature injects the small
 * `Metrics` interface of common/metrics. With METRICS_PORT set, prom-client's implementation and
 * the metrics listener; without it (and in the CLI), the no-op and no listener.
 */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.metricsPort === undefined) return MetricsModule.off();
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: Metrics, useValue: promMetrics() }, MetricsServer],
      exports: [Metrics],
    };
  }

  /** No metrics: the CLI, which shares the service's environment but must not listen. */
  static off(): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: Metrics, useValue: NOOP_METRICS }],
      exports: [Metrics],
    };
  }
}

/**
 * prom-client's implementation, required only when metrics are on: prom-client loads
 * @opentelemetry/api (for exemplars), and a service without metrics or tracing loads neither
 * (docs/security.md, "Traces").
 */
function promMetrics(): Metrics {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PromMetrics } = require('./prom-metrics') as typeof import('./prom-metrics');
  return new PromMetrics();
}
