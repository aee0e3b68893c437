import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
} from 'class-validator';

/** Insecure development defaults; `loadConfig` refuses them when NODE_ENV=production. */
export const DEV_SESSION_SECRET = 'dev-only-insecure-session-secret-change-me';
export const DEV_SIGNING_KEYS_SECRET = 'dev-only-insecure-signing-keys-secret-change-me';
/** SHUTDOWN_DRAIN_DELAY_MS when NODE_ENV=production and the variable is absent (docs/adr/0004). */
export const PRODUCTION_DRAIN_DELAY_MS = 5000;
/** scrypt N = 2^15, r = 8, p = 3: one of the OWASP Password Storage Cheat Sheet's settings. */
export const DEFAULT_PASSWORD_HASH_COST = 15;
/** One day more than the 30 days of GET /stats, so retention never drops what the stats count. */
export const MIN_EVENTS_RETENTION_DAYS = 31;

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }): unknown => {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};
const urlOptions = { require_tld: false, protocols: ['http', 'https'], require_protocol: true };

/**
 * Every environment variable the service reads, with its type and default.
 * `.env.example` documents each one; `loadConfig` is the only reader of process.env.
 */
export class EnvSchema {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /**
   * Port of the Prometheus metrics listener (GET /metrics, docs/operations.md); absent: no
   * listener and no metrics are kept. 0 picks a free port.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** Interface the metrics listener binds: loopback unless chosen, so it is never public by accident. */
  @IsString()
  METRICS_HOST = '127.0.0.1';

  /** PostgreSQL connection string; absent → embedded PGlite under EMBEDDED_DATA_DIR. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['postgres', 'postgresql'], require_protocol: true })
  DATABASE_URL?: string;

  /** Redis connection string; absent → in-process rate-limit storage. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['redis', 'rediss'], require_protocol: true })
  REDIS_URL?: string;

  /** Base URL end users and clients reach the service at (OAuth issuer, links, cookie Secure flag). */
  @IsOptional()
  @IsUrl(urlOptions)
  PUBLIC_BASE_URL?: string;

  /** Secret that signs session and CSRF cookies (secret). */
  @IsString()
  @MinLength(32)
  SESSION_SECRET = DEV_SESSION_SECRET;

  /** Secret that encrypts the OpenID Connect signing keys at rest (secret; docs/oidc.md). */
  @IsString()
  @MinLength(32)
  SIGNING_KEYS_SECRET = DEV_SIGNING_KEYS_SECRET;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** Data directory of the embedded database, or `memory://` for a throw-away one. */
  @IsString()
  EMBEDDED_DATA_DIR = './data';

  /** Run pending migrations when the service starts. */
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN = true;

  /** How long a rotated API key keeps working (seconds); docs/contract/api-keys.md#key-lifecycle: 24 h. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  KEY_GRACE_PERIOD_SECONDS = 86400;

  /** Default per-application quota of the application API (requests per minute); docs/contract/README.md#rate-limits. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 600;

  /** Requests per minute per client address that fail API-key authentication (docs/rate-limit.md). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE = 60;

  /** Switch the application-API rate limiter off (benchmarks, trusted deployments); on by default. */
  @Transform(toBool)
  @IsBoolean()
  RATE_LIMIT_ENABLED = true;

  /** Prefix of the limiter's Redis keys, so several services can share one Redis. */
  @IsString()
  @MinLength(1)
  RATE_LIMIT_KEY_PREFIX = 'idsvc:rl:';

  /**
   * Redis counts as hung when commands are outstanding and no reply at all has arrived for
   * this long; the connection is then dropped and the limiter falls back (docs/adr/0002).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  REDIS_STALL_MS = 5000;

  /** Time allowed to open a Redis connection before it counts as failed. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  REDIS_CONNECT_TIMEOUT_MS = 1000;

  /** Largest PostgreSQL pool (DATABASE_URL only; the embedded database has one connection). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  DATABASE_POOL_MAX = 10;

  /** Time allowed to open a PostgreSQL connection before the request answers 503 (docs/adr/0004). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DATABASE_CONNECT_TIMEOUT_MS = 5000;

  /** Longest a statement may run (server statement_timeout, and the client's own timer). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DATABASE_QUERY_TIMEOUT_MS = 60000;

  /**
   * After SIGTERM, how long the instance keeps serving while /health/ready answers 503, so the
   * load balancer stops sending before the listener closes (docs/adr/0004). Absent: 5000 when
   * NODE_ENV=production, else 0.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_DRAIN_DELAY_MS?: number;

  /** After the drain delay, time left to requests in flight before the process exits anyway. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 10000;

  /** Lifetime of OAuth access tokens, seconds (the token response's expires_in). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  ACCESS_TOKEN_TTL_SECONDS = 3600;

  /** Lifetime of OAuth refresh tokens, seconds; each rotation starts a new one (30 days). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  REFRESH_TOKEN_TTL_SECONDS = 2592000;

  /** Lifetime of OpenID Connect id_tokens, seconds; a retired signing key stays published this much longer. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(86400)
  ID_TOKEN_TTL_SECONDS = 3600;

  /**
   * Seconds after its rotation during which a refresh token presented again by its client gets a
   * fresh pair instead of revoking its family (two tabs refreshing at once; ADR 0003); 0 = off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60)
  REFRESH_TOKEN_REUSE_SECONDS = 10;

  /** Lifetime of authorization codes, seconds; RFC 6749 section 4.1.2 recommends at most 10 minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600)
  AUTH_CODE_TTL_SECONDS = 60;

  /**
   * Lifetime of a pushed authorization request (RFC 9126), seconds: the `expires_in` of the
   * pushed authorization request endpoint's answer, within which its request_uri must be used.
   */
  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(600)
  PAR_REQUEST_URI_TTL_SECONDS = 60;

  /**
   * Pushed authorization requests one client may have waiting at once (unused, unexpired); past
   * it the endpoint answers 429 until some are used or expire (docs/security.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PAR_MAX_PENDING_PER_CLIENT = 1000;

  /**
   * RFC 8628: the lifetime of a device code and its user code (docs/oauth.md, "Device
   * authorization grant"); the answer's `expires_in`.
   */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(1800)
  DEVICE_CODE_TTL_SECONDS = 600;

  /**
   * Device codes one client may have waiting at once (unanswered, unexpired); past it the device
   * authorization endpoint answers 429 until some are answered or expire (docs/security.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  DEVICE_MAX_PENDING_PER_CLIENT = 1000;

  /**
   * Whether every client must push its authorization requests (RFC 9126 section 5): /authorize
   * then takes only a request_uri. Each application can also require it for itself.
   */
  @Transform(toBool)
  @IsBoolean()
  REQUIRE_PUSHED_AUTHORIZATION_REQUESTS = false;

  /**
   * Whether every DPoP proof must carry the nonce the server provides (RFC 9449 sections 8 and 9;
   * docs/oauth.md): proofs made in advance are then refused. A client without one is answered
   * `use_dpop_nonce` with the nonce, and retries.
   */
  @Transform(toBool)
  @IsBoolean()
  DPOP_NONCE_REQUIRED = true;

  /** Lifetime of a browser login session at the authorization server, seconds (12 hours). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  SESSION_TTL_SECONDS = 43200;

  /** Seconds between runs of the purge of expired OAuth rows (docs/oauth.md); 0 = off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  PURGE_INTERVAL_SECONDS = 600;

  /**
   * Days of events kept: the maintenance job drops a month's partition of `events` once its whole
   * month is older than this (docs/operations.md). At least 31, so the 30 days GET /stats counts
   * are never dropped.
   */
  @Transform(toInt)
  @IsInt()
  @Min(MIN_EVENTS_RETENTION_DAYS)
  @Max(36500)
  EVENTS_RETENTION_DAYS = 400;

  /** Milliseconds between webhook delivery rounds of this instance (docs/webhooks.md; 0 = off). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOKS_POLL_MS = 1000;

  /** Accept http:// webhook URLs on loopback hosts (local development; docs/webhooks.md). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_INSECURE = false;

  /**
   * Host names or IP addresses, comma-separated, that webhooks may reach although they resolve
   * to a private, loopback or link-local address (docs/webhooks.md, "Delivery addresses").
   */
  @IsString()
  WEBHOOKS_ALLOWED_PRIVATE_HOSTS = '';

  /**
   * Password hashing work factor: scrypt's N = 2^this (users/password.ts). 15 is the OWASP
   * setting and the least production accepts; the test suite lowers it so that hundreds of
   * sign-ins do not spend minutes hashing. Stored hashes carry their own N.
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(17)
  PASSWORD_HASH_COST = DEFAULT_PASSWORD_HASH_COST;

  /**
   * Password checks (scrypt) one instance runs at once: libuv's pool has 4 threads, shared with
   * file and DNS work, and each check holds 32 MiB (docs/security.md, "Password sign-in").
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  PASSWORD_HASH_CONCURRENCY = 2;

  /**
   * Password checks that may wait for a place; past it a sign-in is answered at once with 503
   * and Retry-After instead of queueing behind a burst. 0 = none wait.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10000)
  PASSWORD_HASH_QUEUE = 32;

  /** Trust X-Forwarded-* from this many proxy hops (0 = none), for client addresses and https. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  TRUST_PROXY_HOPS = 0;

  /**
   * Whether people may create accounts on the login pages at all (docs/accounts.md); each
   * application also decides whether its login page offers the link (off until its owner turns
   * it on).
   */
  @Transform(toBool)
  @IsBoolean()
  SIGNUP_ENABLED = true;

  /**
   * SMTP server the service sends its emails through (secret: it may carry the SMTP password):
   * smtp://user:pass@host:587 (STARTTLS required), smtps://… for implicit TLS; no query string.
   * Absent: messages are written to the log outside production, and not sent at all in
   * production (docs/accounts.md, "Mail").
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['smtp', 'smtps'], require_protocol: true })
  SMTP_URL?: string;

  /**
   * Let an smtp:// SMTP_URL carry the mail (its AUTH and codes) unencrypted when the server
   * offers no STARTTLS: the test suite's loopback mailboxes, a local relay without TLS. Off: the
   * send fails instead. Warned at start; in production only for a loopback host
   * (localhost, 127.0.0.1, [::1]; docs/accounts.md, "Mail").
   */
  @Transform(toBool)
  @IsBoolean()
  SMTP_ALLOW_PLAINTEXT = false;

  /** The From address of every email, e.g. `"Example ID" <id@example.com>`; default no-reply@ the public host. */
  @IsOptional()
  @IsString()
  MAIL_FROM?: string;
}
