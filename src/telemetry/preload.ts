import { existsSync } from 'node:fs';
import { startTracing } from './tracing';

/**
 * The first import of src/main.ts, so that it runs before pg, ioredis, http and express are
 * required: loads `.env` (whose OTEL_* variables count too), then starts tracing when an OTLP
 * endpoint is configured.
 */
if (existsSync('.env')) process.loadEnvFile('.env');

export const tracing = startTracing(process.env);
