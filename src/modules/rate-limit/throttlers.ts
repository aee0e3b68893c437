import type { ExecutionContext } from '@nestjs/common';
import type { ThrottlerModuleOptions, ThrottlerOptions } from '@nestjs/throttler';
import { THROTTLER_LIMIT } from '@nestjs/throttler/dist/throttler.constants';
import { RouteMetadata } from '../../common/http/route-metadata';
import type { AppConfig } from '../../config/app-config';
import type { MessageKey } from '../../common/i18n/i18n';
import type { Request } from 'express';
import { WINDOW_MS } from './fixed-window';
import type { LimiterThrottlerStorage } from './limiter-throttler-storage';

/** Anonymous routes that keep state count per address in 15-minute windows (docs/security.md). */
export const QUOTA_WINDOW_MS = 15 * 60_000;

/**
 * The named throttlers of @nestjs/throttler (docs/rate-limit.md). The name is also the last part
 * of each counter's key. The login throttle is not one of them: it counts failed passwords, not
 * requests, through the same storage (sessions/login-throttle.ts).
 */
export type ThrottlerName =
  /** docs/contract/README.md#rate-limits: one bucket per application, every request that authenticated. */
  | 'app'
  /** Requests whose API key failed authentication, per client address. */
  | 'unauthenticated'
  /** POST /api/console/session/passkey/options, per client address (limit on the route). */
  | 'passkey-sign-in'
  /** GET /api/auth/upstream/{id}/callback, per client address (limit on the route). */
  | 'upstream-callback';

/** How a throttler answers over its limit (429 rate_limited, Retry-After, retry_after). */
export interface Refusal {
  /** The `message` of the 429 JSON body (English, as every API answer). */
  message: string;
  /**
   * On a page (an HTML sign-in route), the words of the refusal instead: a message key the page
   * renders in its language. Only the quotas of page routes have one.
   */
  pageMessage?: MessageKey;
  /**
   * X-RateLimit-Limit/-Remaining/-Reset: on every request it counts ('always'), on its 429 only
   * ('refused': nothing about a bucket is sent with a 401), or never (Retry-After alone).
   */
  headers: 'always' | 'refused' | 'never';
}

export const REFUSALS: Record<ThrottlerName, Refusal> = {
  app: { message: 'Rate limit of the application exceeded', headers: 'always' },
  unauthenticated: {
    message: 'Too many requests with a missing or invalid API key from this address',
    headers: 'refused',
  },
  'passkey-sign-in': {
    message:
      'Too many passkey sign-ins started from this address. Wait a few minutes and try again.',
    pageMessage: 'errors.tooManyPasskeySignIns',
    headers: 'never',
  },
  'upstream-callback': {
    message: 'Too many sign-ins from this address. Wait a few minutes and try again.',
    pageMessage: 'errors.tooManySignIns',
    headers: 'never',
  },
};

/**
 * What ApiKeyGuard leaves on the request (RequestWithApiKey in keys/api-key-context.ts), as far
 * as the buckets read it; stated here so that rate-limit does not import keys, which imports it.
 */
type ApiKeyOutcome = Request & {
  apiKeyContext?: { applicationId: number; application: { rateLimitPerMinute: number | null } };
  apiKeyFailure?: unknown;
};

const reflector = new RouteMetadata();

const requestOf = (context: ExecutionContext): ApiKeyOutcome =>
  context.switchToHttp().getRequest<ApiKeyOutcome>();

// request.ip honours TRUST_PROXY_HOPS: behind a proxy it is the client, not the proxy.
const clientAddress = (context: ExecutionContext): string => requestOf(context).ip ?? 'unknown';

/** Whether the route or its controller gives `name` a limit with @Throttle. */
export function declaresLimit(context: ExecutionContext, name: ThrottlerName): boolean {
  const targets = [context.getHandler(), context.getClass()];
  return reflector.getAllAndOverride<unknown>(THROTTLER_LIMIT + name, targets) !== undefined;
}

/**
 * A per-address quota that counts only on the routes that declare it: `@Throttle({ [name]:
 * { limit, ttl } })` with `@UseGuards(RateLimitGuard)` after the route's own checks.
 */
function routeQuota(name: ThrottlerName, prefix: string): ThrottlerOptions {
  return {
    name,
    ttl: QUOTA_WINDOW_MS,
    limit: 0, // never used: a route that does not name a limit is not counted
    skipIf: (context) => !declaresLimit(context, name),
    getTracker: (_req, context) => clientAddress(context),
    generateKey: (_context, address) => `${prefix}quota:ip:${address}`,
  };
}

/**
 * The API key's two buckets (RATE_LIMIT_ENABLED=false drops them; the route quotas stay). Which
 * one counts a request depends on what ApiKeyGuard found: the application of a valid key, or a
 * failed authentication, charged to the client address instead (docs/rate-limit.md).
 */
function apiKeyBuckets(config: AppConfig): ThrottlerOptions[] {
  const prefix = config.rateLimitKeyPrefix;
  return [
    {
      name: 'app',
      ttl: WINDOW_MS,
      // The application's own limit (applications.rate_limit_per_minute), else the default.
      limit: (context) =>
        requestOf(context).apiKeyContext?.application.rateLimitPerMinute ??
        config.rateLimitPerMinute,
      skipIf: (context) => requestOf(context).apiKeyContext === undefined,
      getTracker: (_req, context) => String(requestOf(context).apiKeyContext?.applicationId),
      generateKey: (_context, applicationId) => `${prefix}app:${applicationId}`,
    },
    {
      name: 'unauthenticated',
      ttl: WINDOW_MS,
      limit: config.rateLimitUnauthenticatedPerMinute,
      skipIf: (context) => requestOf(context).apiKeyFailure === undefined,
      getTracker: (_req, context) => clientAddress(context),
      generateKey: (_context, address) => `${prefix}ip:${address}`,
    },
  ];
}

/** ThrottlerModule.forRootAsync's options: every named throttler, counted in `storage`. */
export function throttlerOptions(
  config: AppConfig,
  storage: LimiterThrottlerStorage,
): ThrottlerModuleOptions {
  const prefix = config.rateLimitKeyPrefix;
  return {
    storage,
    throttlers: [
      ...(config.rateLimitEnabled ? apiKeyBuckets(config) : []),
      routeQuota('passkey-sign-in', prefix),
      routeQuota('upstream-callback', prefix),
    ],
  };
}
