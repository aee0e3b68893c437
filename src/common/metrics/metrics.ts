/**
 * What the features tell the metrics (docs/operations.md, "Metrics"): one call at each seam, the
 * labels already bounded by the caller's own types. The service injects `Metrics`; with
 * METRICS_PORT unset it is NOOP_METRICS, whose methods do nothing, so a hook costs one empty call.
 * The implementation (prom-client) is in src/modules/metrics; no feature imports it.
 */
export abstract class Metrics {
  /** Whether anything is recorded: a hook with work of its own to do (an interceptor) checks it. */
  abstract readonly enabled: boolean;
  /** One answer of the token endpoint: its grant type and `ok` or the RFC 6749 error code. */
  abstract tokenRequest(grantType: TokenGrantLabel, outcome: string): void;
  /** One sign-in attempt that reached its check. */
  abstract login(method: LoginMethod, outcome: LoginOutcome): void;
  /** One count taken in a rate-limit bucket (a throttler's name, or `login-failures`). */
  abstract rateLimitDecision(bucket: string, decision: RateLimitDecision): void;
  /** The limiter's Redis went from one state to the other. */
  abstract redisStateChange(from: RedisState, to: RedisState): void;
  /** A failed database statement (SQLSTATE class, or connection/timeout/other). */
  abstract statementError(error: unknown): void;
  /** A recorder of batch sizes for the batcher `name` (undefined when metrics are off). */
  abstract batchSizes(name: string): ((size: number) => void) | undefined;
  /** One webhook POST: a delivery of the feed, a resend or a test event. */
  abstract webhookDelivery(kind: string, outcome: WebhookOutcome): void;
  /** Read at each scrape: the database pool's connections. */
  abstract onPoolScrape(read: () => PoolState): void;
  /** Read at each scrape: the limiter's storage mode (LimiterStore.mode). */
  abstract onLimiterScrape(read: () => string): void;
  /** Read at each scrape: every enabled webhook endpoint's lag and failing state. */
  abstract onWebhooksScrape(read: () => Promise<readonly WebhookEndpointLag[]>): void;
}

/** `authorization_code`, `refresh_token`, or what else the form said, bounded. */
export type TokenGrantLabel =
  | 'authorization_code'
  | 'refresh_token'
  | 'urn:ietf:params:oauth:grant-type:device_code'
  | 'unsupported'
  | 'missing';

export type LoginMethod = 'password' | 'passkey' | `upstream:${string}`;

export type LoginOutcome =
  | 'success'
  | 'invalid_credentials'
  | 'throttled'
  | 'busy'
  | 'invalid_passkey'
  | 'upstream_error'
  | 'email_taken';

export type RateLimitDecision = 'admitted' | 'limited' | 'fail_open';

export type RedisState = 'up' | 'down';

export type WebhookOutcome = 'success' | 'http_error' | 'network_error';

export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface WebhookEndpointLag {
  endpointId: number;
  /** Age of the oldest event after the endpoint's cursor; 0 when it is caught up. */
  lagSeconds: number;
  failing: boolean;
}

/** Metrics off (METRICS_PORT unset): every hook is an empty call. */
class NoopMetrics extends Metrics {
  readonly enabled = false;
  tokenRequest(): void {}
  login(): void {}
  rateLimitDecision(): void {}
  redisStateChange(): void {}
  statementError(): void {}
  batchSizes(): undefined {
    return undefined;
  }
  webhookDelivery(): void {}
  onPoolScrape(): void {}
  onLimiterScrape(): void {}
  onWebhooksScrape(): void {}
}

export const NOOP_METRICS: Metrics = new NoopMetrics();
