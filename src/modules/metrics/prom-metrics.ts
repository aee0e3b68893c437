import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  Metrics,
  type LoginMethod,
  type LoginOutcome,
  type PoolState,
  type RateLimitDecision,
  type RedisState,
  type TokenGrantLabel,
  type WebhookEndpointLag,
  type WebhookOutcome,
} from '../../common/metrics/metrics';
import { statementErrorClass } from './statement-error-class';

/** Every family's name starts with this (docs/operations.md, "Metrics"). */
export const METRIC_PREFIX = 'idsvc_';

/** Seconds: from a cached page (a few ms) to a slow password hash or upstream call (10 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Items per batch: powers of two up to the largest batch (STATEMENT_BATCHING.maxSize, 64). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64];
const LIMITER_MODES = ['redis', 'in-process', 'in-process-fallback'] as const;

/** The HTTP labels, bounded by http-metrics.ts. */
export type HttpLabels = Record<'method' | 'route' | 'status_class', string>;

/**
 * The prom-client implementation of Metrics, with its own registry (one per application: tests
 * boot several in one process). Counters and histograms are updated by the hooks; the gauges of
 * the pool, the limiter and the webhooks are read from their owners at each scrape.
 */
export class PromMetrics extends Metrics {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly httpRequests = this.counter('http_requests_total', 'HTTP requests answered', [
    'method',
    'route',
    'status_class',
  ]);
  private readonly httpDuration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time from the request reaching the service to the last byte of its answer',
    labelNames: ['method', 'route', 'status_class'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly tokenRequests = this.counter(
    'oauth_token_requests_total',
    'Answers of the token endpoint by grant type and outcome (ok or the RFC 6749 error)',
    ['grant_type', 'outcome'],
  );
  private readonly logins = this.counter('logins_total', 'Sign-in attempts by method and outcome', [
    'method',
    'outcome',
  ]);
  private readonly rateLimit = this.counter(
    'rate_limit_decisions_total',
    'Counts taken in rate-limit buckets: admitted, limited, or admitted on per-instance counters while Redis is unreachable',
    ['bucket', 'decision'],
  );
  private readonly redisTransitions = this.counter(
    'rate_limit_redis_transitions_total',
    "Changes of the limiter's Redis state (up: shared buckets, down: failing open)",
    ['from', 'to'],
  );
  private readonly statementErrors = this.counter(
    'db_statement_errors_total',
    'Failed database statements by SQLSTATE class (or connection, timeout, other)',
    ['class'],
  );
  private readonly batches = new Histogram({
    name: `${METRIC_PREFIX}batch_size`,
    help: 'Items per batch run by a group-commit batcher (1: ran alone)',
    labelNames: ['batcher'],
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  private readonly webhookDeliveries = this.counter(
    'webhook_deliveries_total',
    'Webhook POSTs by kind (delivery, resend, test) and outcome',
    ['kind', 'outcome'],
  );

  /** The pool's reader, given by the database module (onPoolScrape). */
  private poolState?: () => PoolState;

  constructor() {
    super();
    collectDefaultMetrics({ register: this.registry });
    // Registered before any gauge whose collection queries the database (a scrape collects in
    // registration order, each collection starting before the next), so the pool is read
    // before the scrape's own queries wait for a connection and count as waiting.
    const gauge = (name: string, help: string, value: (state: PoolState) => number): void => {
      this.gauge(name, help, [], (g) => {
        const state = this.poolState?.();
        if (state) g.set(value(state));
      });
    };
    gauge('db_pool_in_use', 'Database connections running a statement or transaction', (s) => {
      return s.total - s.idle;
    });
    gauge('db_pool_idle', 'Open database connections waiting for work', (s) => s.idle);
    gauge('db_pool_waiting', 'Requests waiting for a database connection', (s) => s.waiting);
    gauge('db_pool_max', 'Largest size of the database pool', (s) => s.max);
  }

  /** The answer of one HTTP request. */
  httpRequest(labels: HttpLabels, seconds: number): void {
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  tokenRequest(grantType: TokenGrantLabel, outcome: string): void {
    this.tokenRequests.inc({ grant_type: grantType, outcome });
  }

  login(method: LoginMethod, outcome: LoginOutcome): void {
    this.logins.inc({ method, outcome });
  }

  rateLimitDecision(bucket: string, decision: RateLimitDecision): void {
    this.rateLimit.inc({ bucket, decision });
  }

  redisStateChange(from: RedisState, to: RedisState): void {
    this.redisTransitions.inc({ from, to });
  }

  statementError(error: unknown): void {
    this.statementErrors.inc({ class: statementErrorClass(error) });
  }

  batchSizes(name: string): (size: number) => void {
    const child = this.batches.labels({ batcher: name });
    return (size) => child.observe(size);
  }

  webhookDelivery(kind: string, outcome: WebhookOutcome): void {
    this.webhookDeliveries.inc({ kind, outcome });
  }

  onPoolScrape(read: () => PoolState): void {
    this.poolState = read;
  }

  onLimiterScrape(read: () => string): void {
    this.gauge(
      'rate_limit_storage',
      "Where the limiter's counters are kept: 1 for the current mode, 0 for the others",
      ['mode'],
      (g) => {
        const current = read();
        for (const mode of LIMITER_MODES) g.set({ mode }, mode === current ? 1 : 0);
      },
    );
  }

  onWebhooksScrape(readLags: () => Promise<readonly WebhookEndpointLag[]>): void {
    // One query per scrape for both gauges: the second starts while the first's is running.
    let running: Promise<readonly WebhookEndpointLag[]> | undefined;
    const read = (): Promise<readonly WebhookEndpointLag[]> =>
      (running ??= readLags().finally(() => (running = undefined)));
    this.gauge(
      'webhook_endpoint_lag_seconds',
      'Age of the oldest event an enabled endpoint has not received yet (0: caught up)',
      ['endpoint_id'],
      async (g) => {
        g.reset();
        for (const e of await read()) g.set({ endpoint_id: String(e.endpointId) }, e.lagSeconds);
      },
    );
    this.gauge(
      'webhook_endpoints_failing',
      'Enabled endpoints whose last delivery failed (retrying with backoff)',
      [],
      async (g) => g.set((await read()).filter((e) => e.failing).length),
    );
  }

  private counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({
      name: METRIC_PREFIX + name,
      help,
      labelNames,
      registers: [this.registry],
    });
  }

  private gauge(
    name: string,
    help: string,
    labelNames: string[],
    collect: (gauge: Gauge) => void | Promise<void>,
  ): void {
    new Gauge({
      name: METRIC_PREFIX + name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        return collect(this);
      },
    });
  }
}
