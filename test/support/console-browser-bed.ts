import type { Browser } from 'playwright-core';
import {
  consoleAddress,
  launchConsoleChromium,
  openConsoleTab,
  type ConsoleTab,
} from './console-browser';
import type { FixedClock } from './fixed-clock';
import { createTestApp, type TestApp } from './test-app';

export interface ConsoleBrowserBedOptions {
  /** More of the service's environment; PUBLIC_BASE_URL (the bed's localhost origin) wins. */
  env?: Record<string, string>;
  /** The service's clock (default: a FixedClock at the time of boot, as createTestApp's). */
  clock?: FixedClock;
}

/**
 * What the console's browser tests share, set up by useConsoleBrowserBed: one service on a port
 * picked before boot and named in PUBLIC_BASE_URL as `http://localhost:<port>` (the WebAuthn
 * origin: Chromium refuses an IP literal as a relying-party id), and one headless Chromium that
 * resolves localhost to 127.0.0.1 (launchConsoleChromium); before each test, empty tables.
 */
export interface ConsoleBrowserBed {
  /** The service (set in beforeAll). */
  readonly t: TestApp;
  /** The service's origin as the browser names it, `http://localhost:<port>`. */
  readonly base: string;
  /** The browser (set in beforeAll), for a context of a test's own (a cookie set by hand). */
  readonly chromium: Browser;
  /**
   * A new context and tab with a virtual platform authenticator, its script errors collected
   * (openConsoleTab); `locale` sets the browser's language. The test closes its context.
   */
  openTab: (options?: { locale?: string }) => Promise<ConsoleTab>;
}

/** Registers the hooks of a test file that drives the console in Chromium (inside `describe`). */
export function useConsoleBrowserBed(options: ConsoleBrowserBedOptions = {}): ConsoleBrowserBed {
  let t: TestApp | undefined;
  let base: string | undefined;
  let chromium: Browser | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) {
      throw new Error('the console browser bed is used before its beforeAll ran');
    }
    return value;
  };

  beforeAll(async () => {
    const address = await consoleAddress();
    base = address.base;
    t = await createTestApp({
      env: { ...options.env, PUBLIC_BASE_URL: address.base },
      clock: options.clock,
      port: address.port,
    });
    chromium = await launchConsoleChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });
  beforeEach(() => ready(t).truncate());

  return {
    get t() {
      return ready(t);
    },
    get base() {
      return ready(base);
    },
    get chromium() {
      return ready(chromium);
    },
    openTab: (tab) => openConsoleTab(ready(chromium), tab),
  };
}
