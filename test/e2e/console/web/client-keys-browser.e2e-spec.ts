import type { Page, Request } from 'playwright-core';
import supertest from 'supertest';
import { createUser } from '../../../factories';
import {
  confirmWithPasskey,
  createApplication,
  registerPasskey,
  settled,
  signInWithPassword,
} from '../../../support/console-browser';
import { useConsoleBrowserBed } from '../../../support/console-browser-bed';
import { PASSWORD } from '../../../support/oauth';
import {
  assertionFields,
  clientKey,
  jwksOf,
  loadJose,
  signAssertion,
  type ClientKey,
} from '../../../support/private-key-jwt';

// The Settings tab's client authentication in Chromium (docs/console.md, "The Settings tab";
// docs/security.md, "Console: a client's keys"): a private_key_jwt client's public keys pasted
// as a JWK Set or given as a jwks_uri, saved through the passkey dialog, shown as kid, kty and
// alg; then an assertion signed with the registered key authenticates at introspection.
describe("Console Settings tab in Chromium: a client's keys", () => {
  const bed = useConsoleBrowserBed();

  interface Opened {
    appId: number;
    clientId: string;
  }

  /** alice (an owner with a passkey) on the Settings tab of a new `secret` client. */
  async function openSettings(page: Page): Promise<Opened> {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');
    const appId = await createApplication(page, bed.base, 'Customer Portal');
    await page.goto(`${bed.base}/console/applications/${appId}#settings`);
    await page.locator('#settings-form').waitFor();
    const clientId = page.locator('#client-id');
    await clientId.filter({ hasText: /\S/ }).waitFor();
    return { appId, clientId: (await clientId.textContent()) ?? '' };
  }

  /** Chooses private_key_jwt and pastes `jwks` as the form's JWK Set. */
  async function pasteKeys(page: Page, jwks: unknown): Promise<void> {
    await page.locator('#set-auth').selectOption('private_key_jwt');
    await page.locator('#set-jwks').fill(JSON.stringify(jwks, null, 2));
  }

  const saveButton = (page: Page) => page.locator('#settings-form button[type="submit"]');

  /** The state-changing requests the page sends from now on. */
  function changesSent(page: Page): string[] {
    const sent: string[] = [];
    page.on('request', (request: Request) => {
      if (request.method() !== 'GET') sent.push(`${request.method()} ${request.url()}`);
    });
    return sent;
  }

  /** A PATCH of the settings from inside the page (its session cookie), with or without its CSRF token. */
  function patchFromPage(
    page: Page,
    appId: number,
    body: unknown,
    { csrf }: { csrf: boolean },
  ): Promise<{ status: number; text: string }> {
    return page.evaluate(
      async ({ path, body, csrf }) => {
        const session = (await fetch('/api/console/session').then((r) => r.json())) as {
          csrfToken: string;
        };
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (csrf) headers['X-CSRF-Token'] = session.csrfToken;
        const res = await fetch(path, { method: 'PATCH', headers, body: JSON.stringify(body) });
        return { status: res.status, text: await res.text() };
      },
      { path: `/api/console/applications/${appId}`, body, csrf },
    );
  }

  /** Saves, confirms, and finds `reason` in the dialog instead of a saved change; cancels. */
  async function refusedInDialog(page: Page, reason: string): Promise<void> {
    await saveButton(page).click();
    await page.locator('#confirm-dialog').waitFor();
    await page.locator('#confirm-go').click();
    await page.locator('#confirm-error.error', { hasText: reason }).waitFor();
    await page.locator('#confirm-cancel').click();
    await page.locator('#confirm-dialog').waitFor({ state: 'hidden' });
  }

  async function storedClient(appId: number) {
    const [row] = await bed.t.dataSource.query<
      {
        method: string;
        jwks: { keys: Record<string, unknown>[] } | null;
        jwks_uri: string | null;
      }[]
    >('SELECT client_auth_method AS method, jwks, jwks_uri FROM applications WHERE id = $1', [
      appId,
    ]);
    return row;
  }

  /** Introspection of an unknown token, the client authenticated by an assertion of `key`. */
  async function introspectWith(key: ClientKey, clientId: string) {
    const assertion = await signAssertion(key, clientId, {
      now: bed.t.clock.now(),
      aud: bed.base,
    });
    return supertest(bed.t.app.getHttpServer())
      .post('/api/oauth2/introspect')
      .type('form')
      .send({ token: 'unknown', ...assertionFields(assertion) });
  }

  it('switches a client to private_key_jwt with a pasted JWKS and the passkey; the page shows the kid, and an assertion signed with that key authenticates', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId, clientId } = await openSettings(page);
    const key = await clientKey('ES256', 'portal-2026-01');
    // A `secret` client is not authenticated by an assertion, however well signed.
    expect((await introspectWith(key, clientId)).status).toBe(401);

    // The keys' fields show only while private_key_jwt is chosen.
    expect(await page.locator('#set-keys').isHidden()).toBe(true);
    await pasteKeys(page, jwksOf(key));
    expect(await page.locator('#set-keys').isVisible()).toBe(true);
    const patched = page.waitForResponse((r) => r.request().method() === 'PATCH');
    await confirmWithPasskey(
      page,
      saveButton(page),
      page.locator('#settings-status', { hasText: 'Settings saved' }),
    );
    expect((await patched).status()).toBe(200);

    // The registered key: kid, kty and alg, nothing else of the JWK.
    const row = page.locator('#client-keys-table tbody tr');
    await expect(row.locator('td').allTextContents()).resolves.toEqual([
      'portal-2026-01',
      'EC',
      'ES256',
    ]);
    const panel = (await page.locator('#client-keys').textContent()) ?? '';
    expect(panel).not.toContain(String(key.publicJwk.x));
    expect(await page.inputValue('#set-jwks')).toBe('');
    expect(await page.locator('#reset-secret').isHidden()).toBe(true);
    const stored = await storedClient(appId);
    expect(stored.method).toBe('private_key_jwt');
    expect(stored.jwks?.keys.map((jwk) => jwk.kid)).toEqual(['portal-2026-01']);

    // A reload shows it from the API; saving again without pasting keeps the keys, no passkey.
    await page.reload();
    await page.locator('#client-keys-table tbody tr', { hasText: 'portal-2026-01' }).waitFor();
    await page.locator('#settings-form').getByLabel('Description').fill('Keyed now');
    await saveButton(page).click();
    await settled(page, page.locator('#settings-status', { hasText: 'Settings saved' }));
    expect(await page.locator('#confirm-dialog').isHidden()).toBe(true);
    expect((await storedClient(appId)).jwks?.keys.map((jwk) => jwk.kid)).toEqual([
      'portal-2026-01',
    ]);

    // The client now proves itself with that key.
    const introspected = await introspectWith(key, clientId);
    expect([introspected.status, introspected.body]).toEqual([200, { active: false }]);
    // …and with no other.
    expect(
      (await introspectWith(await clientKey('ES256', 'portal-2026-01'), clientId)).status,
    ).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('refuses a pasted private JWK on the page: nothing is sent, and the API refuses it without echoing it', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);
    const jose = await loadJose();
    const key = await clientKey('ES256', 'leaked');
    const privateJwk = { ...(await jose.exportJWK(key.privateKey)), kid: 'leaked' };
    const secret = String(privateJwk.d);

    const sent = changesSent(page);
    await pasteKeys(page, { keys: [key.publicJwk, privateJwk] });
    await saveButton(page).click();
    const alert = page.locator('#settings-status.error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Key 2 holds private or symmetric key material (d). Register the public key only: the private key must never leave the client.',
    );
    expect(await page.locator('#confirm-dialog').isHidden()).toBe(true);
    expect(sent).toEqual([]);

    // Not JSON, and not a key set, are refused on the page too.
    await page.locator('#set-jwks').fill('{"keys": [');
    await saveButton(page).click();
    await page
      .locator('#settings-status.error', { hasText: 'The JWK Set is not valid JSON.' })
      .waitFor();
    await page.locator('#set-jwks').fill('[]');
    await saveButton(page).click();
    await page
      .locator('#settings-status.error', { hasText: 'must be an object with a keys array' })
      .waitFor();
    expect(sent).toEqual([]);

    // The API refuses the same set whole, naming the member and never its value.
    const refused = await patchFromPage(
      page,
      appId,
      { clientAuthMethod: 'private_key_jwt', jwks: { keys: [privateJwk] } },
      { csrf: true },
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      error: 'invalid_request',
      message: expect.stringContaining('private or symmetric key material (d)'),
    });
    expect(refused.text).not.toContain(secret);
    expect(await page.content()).not.toContain(secret);

    // What only the API checks (here `use`) is refused when the confirmation starts: the dialog
    // says why, led in the page's language, and nothing changes.
    await pasteKeys(page, { keys: [{ ...key.publicJwk, use: 'enc' }] });
    await refusedInDialog(
      page,
      'The client settings were not accepted: jwks.keys[0]: use must be sig',
    );
    const stored = await storedClient(appId);
    expect([stored.method, stored.jwks]).toEqual(['secret', null]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('saves nothing when the passkey dialog is cancelled, and the API refuses the keys without a confirmation', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);
    const key = await clientKey('RS256', 'rsa-1');

    const sent = changesSent(page);
    await pasteKeys(page, jwksOf(key));
    await saveButton(page).click();
    await page.locator('#confirm-dialog').waitFor();
    expect(await page.locator('#confirm-text').textContent()).toContain('or its keys');
    await page.locator('#confirm-cancel').click();
    await page.locator('#confirm-dialog').waitFor({ state: 'hidden' });
    expect(sent.filter((line) => line.startsWith('PATCH'))).toEqual([]);

    const refused = await patchFromPage(
      page,
      appId,
      { clientAuthMethod: 'private_key_jwt', jwks: jwksOf(key) },
      { csrf: true },
    );
    expect([refused.status, JSON.parse(refused.text).error]).toEqual([
      403,
      'passkey_confirmation_required',
    ]);
    const stored = await storedClient(appId);
    expect([stored.method, stored.jwks]).toEqual(['secret', null]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("refuses the keys change without the session's CSRF token: nothing changes", async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);
    const key = await clientKey('EdDSA', 'ed-1');

    const refused = await patchFromPage(
      page,
      appId,
      { clientAuthMethod: 'private_key_jwt', jwks: jwksOf(key) },
      { csrf: false },
    );
    expect([refused.status, JSON.parse(refused.text).error]).toEqual([403, 'csrf_failed']);
    const stored = await storedClient(appId);
    expect([stored.method, stored.jwks, stored.jwks_uri]).toEqual(['secret', null, null]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a kid holding markup as text: no element is made of it and no script runs', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);
    const kid = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
    const key = await clientKey('ES256', kid);

    await pasteKeys(page, jwksOf(key));
    await confirmWithPasskey(
      page,
      saveButton(page),
      page.locator('#settings-status', { hasText: 'Settings saved' }),
    );
    expect((await storedClient(appId)).jwks?.keys[0].kid).toBe(kid);
    for (const when of ['saved', 'reloaded']) {
      if (when === 'reloaded') await page.reload();
      const cell = page.locator('#client-keys-table tbody td').first();
      await cell.filter({ hasText: '<script>' }).waitFor();
      expect([when, await cell.textContent()]).toEqual([when, kid]);
      expect(await page.locator('#client-keys script, #client-keys img').count()).toBe(0);
      expect(
        await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
      ).toBeUndefined();
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks for an https jwks_uri on the page, then registers one with the passkey and shows it', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);

    const sent = changesSent(page);
    await page.locator('#set-auth').selectOption('private_key_jwt');
    await page.getByLabel('Fetch from a jwks_uri').check();
    expect(await page.locator('#set-jwks').isHidden()).toBe(true);
    await page.locator('#set-jwks-uri').fill('http://keys.example.com/jwks.json');
    await saveButton(page).click();
    await page
      .locator('#settings-status.error', { hasText: 'The jwks_uri must be an https URL.' })
      .waitFor();
    expect(sent).toEqual([]);

    const uri = 'https://keys.example.com/portal/jwks.json';
    await page.locator('#set-jwks-uri').fill(uri);
    await confirmWithPasskey(
      page,
      saveButton(page),
      page.locator('#settings-status', { hasText: 'Settings saved' }),
    );
    expect(await page.locator('#client-jwks-uri').textContent()).toBe(uri);
    expect(await page.locator('#client-keys-table').isHidden()).toBe(true);
    const stored = await storedClient(appId);
    expect([stored.method, stored.jwks, stored.jwks_uri]).toEqual(['private_key_jwt', null, uri]);

    // Back to a secret client: the keys go, and the new secret is shown once.
    await page.locator('#set-auth').selectOption('secret');
    await confirmWithPasskey(page, saveButton(page), page.locator('#client-secret'));
    expect(await page.locator('#client-keys').isHidden()).toBe(true);
    const after = await storedClient(appId);
    expect([after.method, after.jwks, after.jwks_uri]).toEqual(['secret', null, null]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the keys form, its refusals and the registered keys in Chinese', async () => {
    const { context, page, problems } = await bed.openTab();
    const { appId } = await openSettings(page);
    const back = `/console/applications/${appId}`;
    await page.goto(`${bed.base}/oauth2/language?locale=zh-CN&return=${encodeURIComponent(back)}`);
    await page.locator('#application').waitFor();
    await page.goto(`${bed.base}${back}#settings`);
    await page.locator('#client-id').filter({ hasText: /\S/ }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');

    await page.locator('#set-auth').selectOption('private_key_jwt');
    const fieldset = (await page.locator('#set-keys').innerText()) ?? '';
    for (const words of ['客户端公钥（private_key_jwt）', '粘贴 JWK Set', '从 jwks_uri 获取']) {
      expect(fieldset).toContain(words);
    }
    for (const english of ['Client keys', 'Paste a JWK Set', 'Fetch from', 'Leave it empty']) {
      expect(fieldset).not.toContain(english);
    }

    const jose = await loadJose();
    const key = await clientKey('ES256', 'zh-1');
    await pasteKeys(page, { keys: [await jose.exportJWK(key.privateKey)] });
    await saveButton(page).click();
    await page
      .locator('#settings-status.error', { hasText: '第 1 个密钥含有私钥或对称密钥内容（d）' })
      .waitFor();
    await page.getByLabel('从 jwks_uri 获取').check();
    await page.locator('#set-jwks-uri').fill('http://keys.example.com/jwks.json');
    await saveButton(page).click();
    await page
      .locator('#settings-status.error', { hasText: 'jwks_uri 必须是 https 地址。' })
      .waitFor();

    await page.getByLabel('粘贴 JWK Set').check();
    await page
      .locator('#set-jwks')
      .fill(JSON.stringify({ keys: [{ ...key.publicJwk, use: 'enc' }] }));
    await refusedInDialog(page, '客户端设置未被接受：jwks.keys[0]: use must be sig');
    await page.locator('#set-jwks').fill(JSON.stringify(jwksOf(key)));
    await saveButton(page).click();
    await page.locator('#confirm-dialog').waitFor();
    expect(await page.locator('#confirm-text').textContent()).toContain('或其公钥');
    await page.locator('#confirm-go').click();
    await settled(page, page.locator('#settings-status', { hasText: '设置已保存。' }));
    const keys = (await page.locator('#client-keys').textContent()) ?? '';
    for (const words of ['已登记的公钥', '密钥 ID（kid）', '类型（kty）', '算法（alg）', 'zh-1']) {
      expect(keys).toContain(words);
    }
    expect(keys).not.toContain('Registered keys');
    expect(problems).toEqual([]);
    await context.close();
  });
});
