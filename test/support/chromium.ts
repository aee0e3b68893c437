import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

/** Debian's Chromium: never a downloaded browser (scripts/test-prerequisites.sh installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches Debian's Chromium headless through playwright-core (ESM-free entry, loaded lazily so
 * unit tests never pay for it). A missing binary fails the test instead of skipping it.
 * `extraArgs` adds flags, e.g. a host-resolver rule for `localhost`.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests need Debian's Chromium ` +
        '(apt-get install chromium; npm test and .ci/run install it).',
    );
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** A port that is free now: PUBLIC_BASE_URL (the WebAuthn origin) must name it before boot. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A tab's virtual authenticator, driven over the DevTools Protocol's WebAuthn domain. */
export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * Gives `page` a virtual authenticator standing in for a platform passkey: CTAP2, internal
 * transport, resident (discoverable) keys, user verification that succeeds, presence simulated.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<VirtualAuthenticator> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
