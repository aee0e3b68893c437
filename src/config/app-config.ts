import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  DEFAULT_PASSWORD_HASH_COST,
  DEV_SESSION_SECRET,
  DEV_SIGNING_KEYS_SECRET,
  EnvSchema,
  PRODUCTION_DRAIN_DELAY_MS,
} from './env.schema';
import { isLoopbackHost, parseSmtpUrl, type SmtpServer } from './smtp-url';

/**
 * The list of bad variables: each names the variable and the rule it breaks, never its value.
 * Values are not echoed for any variable (not only the secret ones): URLs carry passwords, and a
 * variable added later cannot leak by someone forgetting to mark it.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Typed, validated configuration. Injected wherever settings are needed. */
export class AppConfig {
  readonly nodeEnv: EnvSchema['NODE_ENV'];
  readonly port: number;
  readonly host: string;
  /** METRICS_PORT: the metrics listener's port, or undefined when metrics are off. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly publicBaseUrl: string;
  readonly sessionSecret: string;
  readonly signingKeysSecret: string;
  readonly logLevel: string;
  readonly embeddedDataDir: string;
  readonly migrationsRun: boolean;
  readonly keyGracePeriodSeconds: number;
  readonly rateLimitPerMinute: number;
  readonly rateLimitUnauthenticatedPerMinute: number;
  readonly rateLimitEnabled: boolean;
  readonly rateLimitKeyPrefix: string;
  readonly redisStallMs: number;
  readonly redisConnectTimeoutMs: number;
  readonly databasePoolMax: number;
  readonly databaseConnectTimeoutMs: number;
  readonly databaseQueryTimeoutMs: number;
  readonly shutdownDrainDelayMs: number;
  readonly shutdownTimeoutMs: number;
  readonly trustProxyHops: number;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly idTokenTtlSeconds: number;
  readonly refreshTokenReuseSeconds: number;
  readonly authCodeTtlSeconds: number;
  /** RFC 9126: the lifetime of a request_uri (docs/oauth.md, "Pushed authorization requests"). */
  readonly parRequestUriTtlSeconds: number;
  readonly parMaxPendingPerClient: number;
  /** RFC 8628: the lifetime of a device code (docs/oauth.md, "Device authorization grant"). */
  readonly deviceCodeTtlSeconds: number;
  readonly deviceMaxPendingPerClient: number;
  /** RFC 9449 section 8: whether DPoP proofs must carry the server's nonce. */
  readonly dpopNonceRequired: boolean;
  /** RFC 9126 section 5, for every client (the discovery field of the same name). */
  readonly requirePushedAuthorizationRequests: boolean;
  readonly sessionTtlSeconds: number;
  readonly purgeIntervalSeconds: number;
  readonly eventsRetentionDays: number;
  readonly webhooksPollMs: number;
  readonly webhooksAllowInsecure: boolean;
  /** Hosts or addresses webhooks may reach although private (WEBHOOKS_ALLOWED_PRIVATE_HOSTS). */
  readonly webhooksAllowedPrivateHosts: readonly string[];
  readonly passwordHashCost: number;
  readonly passwordHashConcurrency: number;
  readonly passwordHashQueue: number;
  readonly signUpEnabled: boolean;
  readonly smtpUrl: string | undefined;
  /** SMTP_URL read (src/config/smtp-url.ts); undefined without it. */
  readonly smtpServer: SmtpServer | undefined;
  /** SMTP_ALLOW_PLAINTEXT: an smtp:// server without STARTTLS gets the mail in clear. */
  readonly smtpAllowPlaintext: boolean;
  readonly mailFrom: string;

  constructor(env: EnvSchema) {
    this.nodeEnv = env.NODE_ENV;
    this.port = env.PORT;
    this.host = env.HOST;
    this.metricsPort = env.METRICS_PORT;
    this.metricsHost = env.METRICS_HOST;
    this.databaseUrl = env.DATABASE_URL || undefined;
    this.redisUrl = env.REDIS_URL || undefined;
    this.publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(
      /\/+$/,
      '',
    );
    this.sessionSecret = env.SESSION_SECRET;
    this.signingKeysSecret = env.SIGNING_KEYS_SECRET;
    this.logLevel = env.LOG_LEVEL;
    this.embeddedDataDir = env.EMBEDDED_DATA_DIR;
    this.migrationsRun = env.MIGRATIONS_RUN;
    this.keyGracePeriodSeconds = env.KEY_GRACE_PERIOD_SECONDS;
    this.rateLimitPerMinute = env.RATE_LIMIT_PER_MINUTE;
    this.rateLimitUnauthenticatedPerMinute = env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE;
    this.rateLimitEnabled = env.RATE_LIMIT_ENABLED;
    this.rateLimitKeyPrefix = env.RATE_LIMIT_KEY_PREFIX;
    this.redisStallMs = env.REDIS_STALL_MS;
    this.redisConnectTimeoutMs = env.REDIS_CONNECT_TIMEOUT_MS;
    this.databasePoolMax = env.DATABASE_POOL_MAX;
    this.databaseConnectTimeoutMs = env.DATABASE_CONNECT_TIMEOUT_MS;
    this.databaseQueryTimeoutMs = env.DATABASE_QUERY_TIMEOUT_MS;
    this.shutdownDrainDelayMs =
      env.SHUTDOWN_DRAIN_DELAY_MS ??
      (env.NODE_ENV === 'production' ? PRODUCTION_DRAIN_DELAY_MS : 0);
    this.shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS;
    this.trustProxyHops = env.TRUST_PROXY_HOPS;
    this.accessTokenTtlSeconds = env.ACCESS_TOKEN_TTL_SECONDS;
    this.refreshTokenTtlSeconds = env.REFRESH_TOKEN_TTL_SECONDS;
    this.idTokenTtlSeconds = env.ID_TOKEN_TTL_SECONDS;
    this.refreshTokenReuseSeconds = env.REFRESH_TOKEN_REUSE_SECONDS;
    this.authCodeTtlSeconds = env.AUTH_CODE_TTL_SECONDS;
    this.parRequestUriTtlSeconds = env.PAR_REQUEST_URI_TTL_SECONDS;
    this.parMaxPendingPerClient = env.PAR_MAX_PENDING_PER_CLIENT;
    this.deviceCodeTtlSeconds = env.DEVICE_CODE_TTL_SECONDS;
    this.deviceMaxPendingPerClient = env.DEVICE_MAX_PENDING_PER_CLIENT;
    this.requirePushedAuthorizationRequests = env.REQUIRE_PUSHED_AUTHORIZATION_REQUESTS;
    this.dpopNonceRequired = env.DPOP_NONCE_REQUIRED;
    this.sessionTtlSeconds = env.SESSION_TTL_SECONDS;
    this.purgeIntervalSeconds = env.PURGE_INTERVAL_SECONDS;
    this.eventsRetentionDays = env.EVENTS_RETENTION_DAYS;
    this.webhooksPollMs = env.WEBHOOKS_POLL_MS;
    this.webhooksAllowInsecure = env.WEBHOOKS_ALLOW_INSECURE;
    this.webhooksAllowedPrivateHosts = env.WEBHOOKS_ALLOWED_PRIVATE_HOSTS.split(',')
      .map((host) => host.trim())
      .filter((host) => host !== '');
    this.passwordHashCost = env.PASSWORD_HASH_COST;
    this.passwordHashConcurrency = env.PASSWORD_HASH_CONCURRENCY;
    this.passwordHashQueue = env.PASSWORD_HASH_QUEUE;
    this.signUpEnabled = env.SIGNUP_ENABLED;
    this.smtpUrl = env.SMTP_URL || undefined;
    const smtpServer = this.smtpUrl === undefined ? undefined : parseSmtpUrl(this.smtpUrl);
    // loadConfig has refused an SMTP_URL that parseSmtpUrl does not read.
    this.smtpServer = typeof smtpServer === 'string' ? undefined : smtpServer;
    this.smtpAllowPlaintext = env.SMTP_ALLOW_PLAINTEXT;
    this.mailFrom = env.MAIL_FROM || `no-reply@${new URL(this.publicBaseUrl).hostname}`;
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  /**
   * The public base URL is https (behind a TLS-terminating proxy too): every browser cookie is
   * Secure with the `__Host-` prefix, and forms come back over https.
   */
  get servesHttps(): boolean {
    return this.publicBaseUrl.startsWith('https://');
  }

  /** The origin browsers see this service at: what an `Origin` header must name. */
  get publicOrigin(): string {
    return new URL(this.publicBaseUrl).origin;
  }

  get usesEmbeddedDatabase(): boolean {
    return this.databaseUrl === undefined;
  }

  /** Mail may cross in clear: smtp:// with SMTP_ALLOW_PLAINTEXT (warned at start). */
  get smtpMayBePlaintext(): boolean {
    return this.smtpServer !== undefined && !this.smtpServer.implicitTls && this.smtpAllowPlaintext;
  }
}

/**
 * Validates the environment once, reporting every bad variable together.
 * In production, insecure development defaults refuse to start.
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const known = Object.keys(new EnvSchema());
  const raw: Record<string, string> = {};
  for (const name of [
    ...known,
    'DATABASE_URL',
    'REDIS_URL',
    'PUBLIC_BASE_URL',
    'SMTP_URL',
    'MAIL_FROM',
  ]) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const parsed = plainToInstance(EnvSchema, raw, { exposeDefaultValues: true });
  const problems = validateSync(parsed, { forbidUnknownValues: true }).flatMap((error) =>
    Object.values(error.constraints ?? {}).map(
      // class-validator's messages name the property and the rule, never the value.
      (text) => `${error.property}: ${text.replace(`${error.property} `, '')}`,
    ),
  );
  if (parsed.SMTP_URL && !problems.some((p) => p.startsWith('SMTP_URL:'))) {
    const smtp = parseSmtpUrl(parsed.SMTP_URL);
    if (typeof smtp === 'string') problems.push(`SMTP_URL: ${smtp}`);
    else if (
      parsed.NODE_ENV === 'production' &&
      parsed.SMTP_ALLOW_PLAINTEXT &&
      !smtp.implicitTls &&
      !isLoopbackHost(smtp.host)
    ) {
      // Plain SMTP across a network hands the SMTP password and every code to whoever is on the
      // path; on a loopback address the mail never leaves this host.
      problems.push(
        'SMTP_ALLOW_PLAINTEXT: in production only for a loopback SMTP_URL host (localhost, 127.0.0.1, [::1])',
      );
    }
  }
  if (parsed.NODE_ENV === 'production') {
    if (parsed.SESSION_SECRET === DEV_SESSION_SECRET) {
      problems.push('SESSION_SECRET: the development default must not be used in production');
    }
    if (parsed.SIGNING_KEYS_SECRET === DEV_SIGNING_KEYS_SECRET) {
      problems.push('SIGNING_KEYS_SECRET: the development default must not be used in production');
    }
    if (!parsed.PUBLIC_BASE_URL) {
      problems.push('PUBLIC_BASE_URL: required in production (it is the OAuth issuer)');
    } else if (!parsed.PUBLIC_BASE_URL.startsWith('https://')) {
      problems.push('PUBLIC_BASE_URL: must be https in production');
    }
    if (parsed.PASSWORD_HASH_COST < DEFAULT_PASSWORD_HASH_COST) {
      problems.push(
        `PASSWORD_HASH_COST: at least ${DEFAULT_PASSWORD_HASH_COST} in production (scrypt N = 2^cost)`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return new AppConfig(parsed);
}
