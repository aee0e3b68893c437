import type { Locator, Page } from 'playwright-core';
import type { EventType } from '../../../../src/modules/events/event-types';
import { EventsService } from '../../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../../src/modules/webhooks/webhook-delivery.service';
import { createUser } from '../../../factories';
import { consoleWorld } from '../../../support/console';
import {
  confirmWithPasskey,
  createApplication,
  registerPasskey,
  settled,
  signInWithPassword,
} from '../../../support/console-browser';
import { PASSWORD } from '../../../support/oauth';
import { useConsoleBrowserBed } from '../../../support/console-browser-bed';
import { WebhookReceiver } from '../../../support/webhook-receiver';

// The Webhooks tab in Chromium against the console API (docs/console.md, docs/webhooks.md): the
// receiver on 127.0.0.1 verifies every request with the secret the page showed once. Delivery
// rounds are driven directly (WEBHOOKS_POLL_MS=0 in tests); http on loopback needs
// WEBHOOKS_ALLOW_INSECURE.
describe('Console webhooks tab in Chromium', () => {
  const receiver = new WebhookReceiver();
  const bed = useConsoleBrowserBed({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.reset();
    // Signatures carry the wall clock; keep the service's clock near it.
    bed.t.clock.set(new Date());
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const record = (applicationId: number, eventType: EventType = 'token_issued'): Promise<string> =>
    bed.t.dataSource.transaction((m) =>
      bed.t.app.get(EventsService).record(m, { applicationId, eventType, userId: '7' }),
    );
  /** One delivery round; how many endpoints it served. */
  const round = async (): Promise<number> =>
    (await bed.t.app.get(WebhookDeliveryService).runRound()).served;
  const endpointRow = (page: Page, url: string): Locator =>
    page.locator('#webhooks-table tbody tr[data-webhook-id]', { hasText: url });
  const logRows = (page: Page): Locator =>
    page.locator('#webhook-deliveries tbody tr[data-delivery-id]');
  /** The log's rows of one kind (Delivery, Resend, Test). */
  const logRowsOf = (page: Page, kind: string): Locator =>
    logRows(page).filter({ has: page.locator('td:nth-child(2)', { hasText: kind }) });

  /** An admin with a passkey on the Webhooks tab of a new application; returns its id. */
  async function openWebhooksTab(page: Page): Promise<number> {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    await signInWithPassword(page, bed.base);
    await registerPasskey(page, bed.base, 'Work laptop');
    const appId = await createApplication(page, bed.base, 'Customer Portal');
    await page.goto(`${bed.base}/console/applications/${appId}#webhooks`);
    await page.locator('#webhooks-table tbody tr.empty').waitFor();
    return appId;
  }

  /** Adds an endpoint through the form and the passkey; returns the secret shown once. */
  async function addEndpoint(page: Page, url: string, types: string[]): Promise<string> {
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const form = page.locator('#webhook-add');
    await form.getByLabel('URL').fill(url);
    for (const type of types) await form.getByLabel(type).check();
    await form.getByLabel('Description').fill('Billing sync');
    await confirmWithPasskey(
      page,
      form.getByRole('button', { name: 'Add endpoint' }),
      page.locator('#webhook-secret'),
    );
    return (await page.locator('#webhook-secret-value').textContent()) ?? '';
  }

  it('adds an endpoint with the passkey, tests it, shows deliveries, resends and replays', async () => {
    const { context, page, problems } = await bed.openTab();
    const appId = await openWebhooksTab(page);
    const url = receiver.url('/hooks');

    const secret = await addEndpoint(page, url, ['token_issued']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    receiver.trust('/hooks', secret);
    await expect(page.locator('#webhook-secret').textContent()).resolves.toContain(
      'cannot be shown again',
    );
    const row = endpointRow(page, url);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([
      `${url}Billing sync`,
      'token_issued',
      'Enabled',
      'No event yet',
    ]);

    // Shown once: dismissed, it is gone, and a reload does not bring it back.
    await page.getByRole('button', { name: 'Done, hide it' }).click();
    expect(await page.locator('#webhook-secret').isHidden()).toBe(true);
    await page.reload();
    await endpointRow(page, url).waitFor();
    expect(await page.content()).not.toContain(secret);

    // The test event reaches the receiver, signed with that secret; the page says how it went.
    await endpointRow(page, url).getByRole('button', { name: 'Send test event' }).click();
    await settled(page, page.locator('#webhooks-status', { hasText: 'delivered, HTTP 200' }));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].id).toMatch(/^test_/);
    expect(receiver.received[0].body.type).toBe('webhook.test');

    // The delivery log: the test attempt now, the real event after a round and Refresh.
    await endpointRow(page, url).getByRole('button', { name: 'Delivery log' }).click();
    await logRows(page).first().waitFor();
    expect(await logRows(page).locator('td').nth(1).textContent()).toBe('Test');
    const eventId = await record(appId);
    expect(await round()).toBe(1);
    expect(receiver.ids('/hooks').slice(1)).toEqual([`evt_${eventId}`]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const delivered = logRowsOf(page, 'Delivery');
    await delivered.waitFor();
    const logCells = await delivered.locator('td').allTextContents();
    expect(logCells.slice(1, 4)).toEqual(['Delivery', eventId, '200']);
    expect(logCells[4]).toMatch(/^[\d,.\s]+ ms$/);
    await settled(page, endpointRow(page, url).getByText(`Last event ${eventId}`));

    // Resend: that one event again, same webhook-id.
    await delivered.getByRole('button', { name: 'Resend' }).click();
    await settled(page, page.locator('#webhook-log-status', { hasText: 'resent: delivered' }));
    await logRowsOf(page, 'Resend').waitFor();

    // Replay from the event, with the passkey: the next round sends it again, same webhook-id.
    await page.locator('#replay-event').fill(eventId);
    await confirmWithPasskey(
      page,
      page.getByRole('button', { name: 'Replay' }),
      page.locator('#webhook-log-status', { hasText: 'Replay from event' }),
    );
    await expect(page.locator('#webhook-log-status').textContent()).resolves.toContain(
      '1 event to send again',
    );
    await round();
    expect(receiver.ids('/hooks').slice(1)).toEqual([
      `evt_${eventId}`,
      `evt_${eventId}`,
      `evt_${eventId}`,
    ]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await logRowsOf(page, 'Delivery').nth(1).waitFor();
    // Newest first: the replayed delivery, the resend, the first delivery, the test.
    const column = (n: number) => logRows(page).locator(`td:nth-child(${n})`).allTextContents();
    expect(await column(2)).toEqual(['Delivery', 'Resend', 'Delivery', 'Test']);
    expect(await column(3)).toEqual([eventId, eventId, eventId, 'test']);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits, disables, shows failures, rotates the secret and deletes an endpoint', async () => {
    const { context, page, problems } = await bed.openTab();
    const appId = await openWebhooksTab(page);
    const first = receiver.url('/first');
    const second = receiver.url('/second');
    const secret = await addEndpoint(page, first, []);
    // The secret stays with the endpoint when its URL changes.
    receiver.trust('/first', secret);
    receiver.trust('/second', secret);
    await page.getByRole('button', { name: 'Done, hide it' }).click();
    await expect(endpointRow(page, first).locator('td').nth(1).textContent()).resolves.toBe('all');

    // Event types and description: no passkey.
    await endpointRow(page, first).getByRole('button', { name: 'Edit' }).click();
    const edit = page.locator('#webhook-edit');
    await edit.getByLabel('authorization_granted').check();
    await edit.getByLabel('Description').fill('Audit mirror');
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await settled(page, endpointRow(page, first).getByText('Audit mirror'));
    expect(await endpointRow(page, first).locator('td').nth(1).textContent()).toBe(
      'authorization_granted',
    );

    // A new URL: through the passkey.
    await endpointRow(page, first).getByRole('button', { name: 'Edit' }).click();
    await edit.getByLabel('URL').fill(second);
    await confirmWithPasskey(
      page,
      edit.getByRole('button', { name: 'Save endpoint' }),
      endpointRow(page, second),
    );

    // Disable and enable again.
    await endpointRow(page, second).getByRole('button', { name: 'Disable' }).click();
    await settled(page, endpointRow(page, second).locator('.badge', { hasText: 'Disabled' }));
    await endpointRow(page, second).getByRole('button', { name: 'Enable' }).click();
    await settled(page, endpointRow(page, second).locator('.badge', { hasText: 'Enabled' }));

    // Failures show: a 500 leaves it failing with a next attempt; a 410 then disables it, with
    // the reason; enabling clears both.
    receiver.script('/second', { status: 500 }, { status: 410 });
    await record(appId, 'authorization_granted');
    await round();
    await page.reload();
    await settled(page, endpointRow(page, second).getByText('Failing since'));
    await endpointRow(page, second).getByText('Next attempt').waitFor();
    bed.t.clock.advance(10 * 60_000);
    await round();
    await page.reload();
    await settled(page, endpointRow(page, second).getByText('the endpoint answered 410 Gone'));
    expect(await endpointRow(page, second).locator('.badge').allTextContents()).toEqual([
      'Disabled',
      'Failing',
    ]);
    await endpointRow(page, second).getByRole('button', { name: 'Enable' }).click();
    await settled(page, endpointRow(page, second).locator('.badge', { hasText: 'Enabled' }));
    expect(await endpointRow(page, second).getByText('Failing since').count()).toBe(0);

    // Rotation: a new secret shown once, and when the old one stops signing.
    await confirmWithPasskey(
      page,
      endpointRow(page, second).getByRole('button', { name: 'Rotate secret' }),
      page.locator('#webhook-secret'),
    );
    const rotated = (await page.locator('#webhook-secret-value').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    await expect(page.locator('#webhooks-status').textContent()).resolves.toContain(
      'The old one keeps signing until',
    );
    receiver.trust('/second', rotated);
    await endpointRow(page, second).getByRole('button', { name: 'Send test event' }).click();
    await settled(page, page.locator('#webhooks-status', { hasText: 'delivered, HTTP 200' }));
    expect(receiver.ids('/second').at(-1)).toMatch(/^test_/);

    // Delete: the passkey dialog says what goes; the list is empty afterwards.
    await endpointRow(page, second).getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator('#confirm-text').textContent()).resolves.toContain(
      'cannot be undone',
    );
    await page.locator('#confirm-go').click();
    await settled(page, page.locator('#webhooks-table tbody tr.empty'));
    expect(await bed.t.dataSource.query('SELECT id FROM webhook_endpoints')).toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('an admin has the Webhooks tab; a viewer does not, even with #webhooks in the URL', async () => {
    const world = await consoleWorld(bed.t);
    /** The application's page at #webhooks in a browser signed in as `client`. */
    const openAs = async (client: { cookie: string }) => {
      const context = await bed.chromium.newContext();
      const [name, value] = client.cookie.split('=');
      await context.addCookies([{ name, value, url: bed.base }]);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${bed.base}/console/applications/${world.applicationId}#webhooks`);
      return { context, page };
    };

    const admin = await openAs(world.admin);
    await admin.page.locator('#webhooks-table tbody tr.empty').waitFor();
    expect(await admin.page.locator('.tabs a:visible').allTextContents()).toContain('Webhooks');
    await admin.context.close();

    const viewer = await openAs(world.viewer);
    await viewer.page.locator('#tab-overview').waitFor();
    expect(await viewer.page.locator('.tabs a:visible').allTextContents()).toEqual([
      'Overview',
      'Users',
      'Events',
    ]);
    expect(await viewer.page.locator('#tab-webhooks').isHidden()).toBe(true);
    await viewer.context.close();
  });
});
