import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The passkey sign-in script of the sign-in pages (assets/passkey-sign-in.js beside this file:
 * the tests serve it from src/, `npm run build` copies it into dist/), read once at start.
 */
const SOURCE = readFileSync(join(__dirname, 'assets', 'passkey-sign-in.js'));

/** The first 16 hex digits of the script's SHA-256: a new version is a new URL. */
export const PASSKEY_SCRIPT_VERSION = createHash('sha256')
  .update(SOURCE)
  .digest('hex')
  .slice(0, 16);

export const PASSKEY_SCRIPT_PATH = '/oauth2/assets/passkey-sign-in.js';

/** What a page links: the path with the version, so a browser may cache it for good. */
export const PASSKEY_SCRIPT_URL = `${PASSKEY_SCRIPT_PATH}?v=${PASSKEY_SCRIPT_VERSION}`;

const A_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Sends the script. Under the current version's URL it is cacheable for a year (immutable: that
 * URL never names other content); under any other (an old page's `v`, or none) it is revalidated
 * on each use, so no stale copy is kept under a name that now means this one.
 */
export function sendPasskeyScript(res: Response, version: unknown): void {
  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
  res.setHeader(
    'Cache-Control',
    version === PASSKEY_SCRIPT_VERSION
      ? `public, max-age=${A_YEAR_SECONDS}, immutable`
      : 'no-cache',
  );
  res.status(200).send(SOURCE);
}
