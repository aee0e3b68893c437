import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { serviceVersion } from '../config/service-version';
import { ScrubbingExporter } from './span-scrubber';
import { readTraceIdWith } from './trace-id';

const DEFAULT_SERVICE_NAME = 'identity-service';

/** What main.ts keeps of the tracing SDK: the flush at shutdown. */
export interface Tracing {
  /** Ends the instrumentations and exports the spans still buffered. */
  shutdown(): Promise<void>;
}

/**
 * Only loaded when tracing is on (tracing.ts). The exporter, sampler, batch processor and
 * resource read their standard OTEL_* variables themselves (docs/operations.md, "Traces").
 */
export function startTracingSdk(): Tracing {
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME,
        [ATTR_SERVICE_VERSION]: serviceVersion(),
      }),
    )
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new ScrubbingExporter(new OTLPTraceExporter()))],
  });
  // W3C trace context (traceparent) in and out.
  provider.register();
  const unregister = registerInstrumentations({
    instrumentations: [
      // No header becomes an attribute (headersToSpanAttributes stays empty). Like every span
      // below, an outgoing call is traced only inside a traced request: background work (webhook
      // rounds, the purge) makes no traces of its own.
      new HttpInstrumentation({ requireParentforOutgoingSpans: true }),
      new ExpressInstrumentation({
        ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
      }),
      // Statement text with its placeholders, never the values (enhancedDatabaseReporting off).
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // The command name only: keys may name a client's address or an API key prefix.
      new IORedisInstrumentation({
        dbStatementSerializer: (command) => command,
        requireParentSpan: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  readTraceIdWith(() => trace.getActiveSpan()?.spanContext().traceId);
  return {
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}
