import { Controller, Get, type ExecutionContext } from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config';
import type { LimiterThrottlerStorage } from './limiter-throttler-storage';
import { declaresLimit, throttlerOptions } from './throttlers';

@Controller()
class Routes {
  @Get('quota')
  @Throttle({ 'passkey-sign-in': { limit: 3, ttl: 1000 } })
  quota(): void {}

  @Get('plain')
  plain(): void {}
}

/** The route's handler, as Nest's ExecutionContext hands it to guards. */
const handlerOf = (name: 'quota' | 'plain'): unknown =>
  Object.getOwnPropertyDescriptor(Routes.prototype, name)?.value;

function contextOf(
  route: 'quota' | 'plain',
  request: Record<string, unknown> = {},
): ExecutionContext {
  return {
    getHandler: () => handlerOf(route),
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const config = (enabled: boolean) =>
  ({
    rateLimitEnabled: enabled,
    rateLimitKeyPrefix: 'p:',
    rateLimitPerMinute: 600,
    rateLimitUnauthenticatedPerMinute: 60,
  }) as AppConfig;
const storage = {} as LimiterThrottlerStorage;

describe('throttlers', () => {
  describe(declaresLimit.name, () => {
    // Reads the metadata @Throttle writes: fails if the library changes where it keeps it.
    it('sees the limit @Throttle gives the route, and only for that throttler', () => {
      expect(declaresLimit(contextOf('quota'), 'passkey-sign-in')).toBe(true);
      expect(declaresLimit(contextOf('quota'), 'upstream-callback')).toBe(false);
      expect(declaresLimit(contextOf('plain'), 'passkey-sign-in')).toBe(false);
    });
  });

  describe(throttlerOptions.name, () => {
    const byName = (enabled: boolean) => {
      const options = throttlerOptions(config(enabled), storage);
      if (Array.isArray(options)) throw new Error('expected the object form');
      return new Map(options.throttlers.map((throttler) => [throttler.name, throttler]));
    };

    it('counts a route quota only where the route declares it', () => {
      const quota = byName(true).get('passkey-sign-in')!;
      expect(quota.skipIf!(contextOf('quota'))).toBe(false);
      expect(quota.skipIf!(contextOf('plain'))).toBe(true);
    });

    it('charges the application of a valid key, or the address of a failed authentication', () => {
      const throttlers = byName(true);
      const authenticated = contextOf('plain', {
        apiKeyContext: { applicationId: 7, application: { id: 7, rateLimitPerMinute: 5 } },
      });
      const failed = contextOf('plain', { apiKeyFailure: new Error('401') });
      expect(throttlers.get('app')!.skipIf!(authenticated)).toBe(false);
      expect(throttlers.get('app')!.skipIf!(failed)).toBe(true);
      expect(throttlers.get('unauthenticated')!.skipIf!(failed)).toBe(false);
      expect(throttlers.get('unauthenticated')!.skipIf!(authenticated)).toBe(true);
    });

    it('takes the application limit from the application, else from the configuration', () => {
      const limit = byName(true).get('app')!.limit as (context: ExecutionContext) => number;
      const own = { applicationId: 7, application: { id: 7, rateLimitPerMinute: 5 } };
      const none = { applicationId: 8, application: { id: 8, rateLimitPerMinute: null } };
      expect(limit(contextOf('plain', { apiKeyContext: own }))).toBe(5);
      expect(limit(contextOf('plain', { apiKeyContext: none }))).toBe(600);
    });

    it('drops the API-key buckets when RATE_LIMIT_ENABLED=false and keeps the route quotas', () => {
      expect([...byName(false).keys()]).toEqual(['passkey-sign-in', 'upstream-callback']);
    });
  });
});
