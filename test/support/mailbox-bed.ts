import type { AddressInfo } from 'node:net';
import { freePort } from './chromium';
import type { FixedClock } from './fixed-clock';
import { startMailbox, type MailboxOptions, type TestMailbox } from './smtp-server';
import { createTestApp, type TestApp } from './test-app';

export interface MailboxBedOptions {
  /** More of the service's environment; SMTP_URL (and PUBLIC_BASE_URL with `publicBaseUrl`) win. */
  env?: Record<string, string>;
  /** The service's clock (default: a FixedClock at the time of boot, as createTestApp's). */
  clock?: FixedClock;
  /** The mailbox's own options (AUTH). */
  mailbox?: MailboxOptions;
  /**
   * Listen on a port picked before boot and name it in PUBLIC_BASE_URL, so the links the
   * service emails (and the WebAuthn origin) lead to this very app, as a browser test needs.
   */
  publicBaseUrl?: boolean;
}

/**
 * What the tests of emailed codes and links share, set up by useMailboxBed: a loopback SMTP
 * server (startMailbox) and one service that sends its mail there; before each test, empty
 * tables and an empty `mailbox.received` (mail of an earlier test is never read by a later one).
 */
export interface MailboxBed {
  /** The service (set in beforeAll). */
  readonly t: TestApp;
  /** The mailbox the service sends to (set in beforeAll). */
  readonly mailbox: TestMailbox;
  /** The service's origin, `http://127.0.0.1:<port>` (PUBLIC_BASE_URL with `publicBaseUrl`). */
  readonly base: string;
}

/** Registers the hooks of a test file whose service sends email (call it inside `describe`). */
export function useMailboxBed(options: MailboxBedOptions = {}): MailboxBed {
  let t: TestApp | undefined;
  let mailbox: TestMailbox | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the mailbox bed is used before its beforeAll ran');
    return value;
  };

  beforeAll(async () => {
    mailbox = await startMailbox(options.mailbox);
    const env: Record<string, string> = { ...options.env, SMTP_URL: mailbox.url };
    let port: number | undefined;
    if (options.publicBaseUrl) {
      port = await freePort();
      env.PUBLIC_BASE_URL = `http://127.0.0.1:${port}`;
    }
    t = await createTestApp({ env, clock: options.clock, port });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
  });
  beforeEach(async () => {
    await ready(t).truncate();
    ready(mailbox).received.splice(0);
  });

  return {
    get t() {
      return ready(t);
    },
    get mailbox() {
      return ready(mailbox);
    },
    get base() {
      const { port } = ready(t).app.getHttpServer().address() as AddressInfo;
      return `http://127.0.0.1:${port}`;
    },
  };
}
