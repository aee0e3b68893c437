import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { addVirtualAuthenticator, freePort, launchChromium } from './chromium';
import { PASSWORD } from './oauth';

// The console's browser tests share these steps (test/e2e/console/web/).

/**
 * A free port for the app and the base URL the browser uses: localhost, not 127.0.0.1, because
 * Chromium refuses an IP literal as a WebAuthn relying-party id. Pass `base` as PUBLIC_BASE_URL.
 */
export async function consoleAddress(): Promise<{ port: number; base: string }> {
  const port = await freePort();
  return { port, base: `http://localhost:${port}` };
}

/** Chromium for the console: the app listens on 127.0.0.1 only, so never try ::1 first. */
export const launchConsoleChromium = (): Promise<Browser> =>
  launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1']);

export interface ConsoleTab {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  /** Script errors and CSP violations seen in the page. */
  problems: string[];
}

/**
 * A browser tab with a virtual platform authenticator (ctap2, internal, resident key, UV);
 * `locale` sets the browser's language (navigator.language and Accept-Language).
 */
export async function openConsoleTab(
  chromium: Browser,
  { locale }: { locale?: string } = {},
): Promise<ConsoleTab> {
  const context = await chromium.newContext({ viewport: { width: 1280, height: 860 }, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  // CSP violations and script errors surface here; "Failed to load resource" is the expected
  // 401 of GET /api/console/session before sign-in.
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(message.text());
    }
  });
  const { cdp, authenticatorId } = await addVirtualAuthenticator(context, page);
  return { context, page, cdp, authenticatorId, problems };
}

/** Waits for `done`, or fails at once with the text of an error the page shows instead. */
export async function settled(page: Page, done: Locator): Promise<void> {
  const failure = page.locator('.alert.error:visible');
  await done.or(failure).first().waitFor();
  if (await failure.count()) {
    throw new Error(`the page says: ${await failure.first().textContent()}`);
  }
}

export async function signInWithPassword(page: Page, base: string, login = 'alice'): Promise<void> {
  await page.goto(`${base}/console`);
  await page.locator('#signin').waitFor();
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.locator('#signin-form button[type="submit"]').click();
  await page.locator('#apps').waitFor();
}

export async function registerPasskey(page: Page, base: string, name: string): Promise<void> {
  await page.goto(`${base}/console/account`);
  await page.locator('#account').waitFor();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await settled(page, page.locator('#passkeys-table tbody tr', { hasText: name }));
}

/** Creates an application on the console's home page; returns its id. */
export async function createApplication(page: Page, base: string, name: string): Promise<number> {
  await page.goto(`${base}/console`);
  await page.getByRole('button', { name: 'Create application' }).click();
  await page.locator('#app-name').fill(name);
  await page.locator('#app-description').fill('Customer portal of Example Ltd.');
  await page.locator('#app-home').fill('https://portal.example.com');
  await page.locator('#app-redirects').fill('https://portal.example.com/callback');
  await page.locator('#create-app-form button[type="submit"]').click();
  const link = page.locator('#apps-table a', { hasText: name });
  await settled(page, link);
  return Number((await link.getAttribute('href'))?.split('/').pop());
}

/** Clicks the button that opens the passkey prompt, confirms in the dialog, waits for `done`. */
export async function confirmWithPasskey(
  page: Page,
  opener: Locator,
  done: Locator,
): Promise<void> {
  await opener.click();
  await page.locator('#confirm-dialog').waitFor();
  await page.locator('#confirm-go').click();
  await settled(page, done);
}
