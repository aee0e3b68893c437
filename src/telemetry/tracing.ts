import type { Tracing } from './tracing-sdk';

/**
 * Tracing is on when an OTLP endpoint is configured (docs/operations.md, "Traces") and
 * OTEL_SDK_DISABLED is not `true`. These are the SDK's own standard variables, read here because
 * this runs before the configuration is loaded (and before anything it would instrument).
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/**
 * Starts the SDK when wanted; otherwise no OpenTelemetry module is ever loaded. The require is
 * deliberately lazy: the instrumentations patch http, express, pg and ioredis as they are
 * required, so this must run before any of them is.
 */
export function startTracing(env: NodeJS.ProcessEnv): Tracing | undefined {
  if (!tracingWanted(env)) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  return sdk.startTracingSdk();
}
