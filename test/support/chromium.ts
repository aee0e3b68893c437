import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

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
