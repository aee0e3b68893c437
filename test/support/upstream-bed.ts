import {
  UpstreamProvidersService,
  type ProviderView,
} from '../../src/modules/upstreams/providers/upstream-providers.service';
import { freePort } from './chromium';
import type { FixedClock } from './fixed-clock';
import { ISSUER } from './oauth';
import { createTestApp, type TestApp } from './test-app';
import {
  startOidcStandIn,
  type OidcAccount,
  type OidcStandIn,
  type OidcStandInOptions,
} from './upstream-standins/oidc';

export interface UpstreamBedOptions {
  /** More of the service's environment; PUBLIC_BASE_URL with `publicBaseUrl` wins. */
  env?: Record<string, string>;
  /** The service's clock (default: a FixedClock at the time of boot, as createTestApp's). */
  clock?: FixedClock;
  /**
   * The providers the stand-in's client may send the browser back to: its redirect_uris are
   * their callbacks on this service (default `['corp']`).
   */
  providerIds?: string[];
  /** Who the stand-in signs in, set again before each test (default: its own, sub oidc-user-1). */
  account?: OidcAccount;
  /** The stand-in's own options (conformIdTokenClaims). */
  standIn?: OidcStandInOptions;
  /**
   * Listen on a port picked before boot and name it in PUBLIC_BASE_URL, so the provider sends
   * a real browser back to this very app (a Chromium test); else the callbacks name the
   * test environment's PUBLIC_BASE_URL (ISSUER), which HTTP tests follow by path.
   */
  publicBaseUrl?: boolean;
}

/**
 * What the tests of upstream sign-in share, set up by useUpstreamBed: an OpenID provider on
 * loopback (panva's oidc-provider, startOidcStandIn) whose client returns to this service's
 * callbacks, and one service; before each test, empty tables and the stand-in's `account` reset.
 * No provider is configured: a test registers it with `addProvider` when its story needs one.
 */
export interface UpstreamBed {
  /** The service (set in beforeAll). */
  readonly t: TestApp;
  /** The upstream provider (set in beforeAll); set `upstream.account` for who signs in there. */
  readonly upstream: OidcStandIn;
  /** The service's PUBLIC_BASE_URL: its callbacks are `${base}/api/auth/upstream/<id>/callback`. */
  readonly base: string;
  /** Configures provider `id` (kind oidc, default `corp`, "Corp SSO") at the stand-in. */
  addProvider: (id?: string, displayName?: string) => Promise<ProviderView>;
}

/** Registers the hooks of a test file that signs in through an upstream provider (in `describe`). */
export function useUpstreamBed(options: UpstreamBedOptions = {}): UpstreamBed {
  let t: TestApp | undefined;
  let upstream: OidcStandIn | undefined;
  let base: string | undefined;
  let account: OidcAccount | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the upstream bed is used before its beforeAll ran');
    return value;
  };

  beforeAll(async () => {
    const env: Record<string, string> = { ...options.env };
    let port: number | undefined;
    if (options.publicBaseUrl) {
      port = await freePort();
      env.PUBLIC_BASE_URL = `http://127.0.0.1:${port}`;
    }
    base = env.PUBLIC_BASE_URL ?? ISSUER;
    t = await createTestApp({ env, clock: options.clock, port });
    const callbacks = (options.providerIds ?? ['corp']).map(
      (id) => `${base}/api/auth/upstream/${id}/callback`,
    );
    upstream = await startOidcStandIn(callbacks, options.standIn);
    account = { ...(options.account ?? upstream.account) };
  });
  afterAll(async () => {
    await upstream?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await ready(t).truncate();
    ready(upstream).account = { ...ready(account) };
  });

  return {
    get t() {
      return ready(t);
    },
    get upstream() {
      return ready(upstream);
    },
    get base() {
      return ready(base);
    },
    addProvider: (id = 'corp', displayName = 'Corp SSO') => {
      const standIn = ready(upstream);
      return ready(t)
        .app.get(UpstreamProvidersService)
        .create({
          id,
          displayName,
          kind: 'oidc',
          clientId: standIn.clientId,
          clientSecret: standIn.clientSecret,
          settings: { issuer: standIn.issuer },
        });
    },
  };
}
