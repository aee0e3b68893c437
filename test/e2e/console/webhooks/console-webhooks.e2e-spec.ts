import { Webhook } from 'standardwebhooks';
import { EventsService } from '../../../../src/modules/events/events.service';
import { WebhookDeliveryService } from '../../../../src/modules/webhooks/webhook-delivery.service';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
  type ConfirmationRequestBody,
} from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';
import { WebhookReceiver } from '../../../support/webhook-receiver';

interface EndpointBody {
  id: number;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  nextAttemptAt: string | null;
  lastDeliveredEventId: number;
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

interface AttemptBody {
  id: number;
  eventId: number | null;
  kind: string;
  statusCode: number | null;
  error: string | null;
}

/**
 * The Webhooks tab (docs/webhooks.md, docs/console.md): admins only, endpoints of the
 * application only, the changes that need one confirmed with a real passkey assertion bound to
 * the endpoint and the URL or replay start, every change in the audit log with its actor.
 */
describe('console webhooks', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
  const receiver = new WebhookReceiver();
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    await t.truncate();
    receiver.reset();
    t.clock.set(start);
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.admin, authenticator);
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  const path = (suffix = '', applicationId = w.applicationId) =>
    `/api/console/applications/${applicationId}/webhooks${suffix}`;
  const confirm = (
    body: Omit<ConfirmationRequestBody, 'applicationId'>,
    applicationId = w.applicationId,
  ) => confirmationToken(w.admin, authenticator, { applicationId, ...body });
  const error = (res: { status: number; body: unknown }) => [
    res.status,
    (res.body as { error?: string }).error,
  ];
  const audit = async () =>
    (
      (
        await w.admin
          .request('get', `/api/console/applications/${w.applicationId}/audit-log`)
          .expect(200)
      ).body as {
        entries: {
          action: string;
          target: string;
          actor: { id: string } | null;
          ip: string;
          details: object;
        }[];
      }
    ).entries;
  const record = (applicationId = w.applicationId): Promise<string> =>
    t.dataSource.transaction((m) =>
      t.app
        .get(EventsService)
        .record(m, { applicationId, eventType: 'token_issued', userId: null }),
    );

  /** Adds an endpoint at `suffix` of the receiver through the console; its view and secret. */
  async function add(suffix = '/hooks', extra: object = {}) {
    const url = receiver.url(suffix);
    const token = await confirm({ action: 'webhook.create', url });
    const res = await w.admin
      .request('post', path())
      .set(CONFIRMATION_HEADER, token)
      .send({ url, ...extra })
      .expect(201);
    const body = res.body as { endpoint: EndpointBody; secret: string };
    receiver.trust(suffix, body.secret);
    return body;
  }

  it('adds an endpoint: the secret once, the view, the audit entry with the actor and no secret', async () => {
    const { endpoint, secret } = await add('/hooks', {
      eventTypes: ['token_issued'],
      description: 'Billing',
    });
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toEqual({
      id: expect.any(Number),
      url: receiver.url('/hooks'),
      description: 'Billing',
      eventTypes: ['token_issued'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      nextAttemptAt: null,
      lastDeliveredEventId: expect.any(Number),
      previousSecretUntil: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = (await w.admin.request('get', path()).expect(200)).body as EndpointBody[];
    expect(list).toEqual([endpoint]);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    const [entry] = await audit();
    expect(entry).toEqual(
      expect.objectContaining({
        action: 'webhook.create',
        target: `webhook:${endpoint.id}`,
        actor: expect.objectContaining({ id: w.admin.userId }),
        ip: expect.any(String),
        details: { via: 'console', url: endpoint.url, eventTypes: ['token_issued'] },
      }),
    );
    expect(JSON.stringify(await audit())).not.toContain('whsec_');
  });

  it('binds webhook.create to the URL, and refuses a bad URL before spending the token', async () => {
    const url = receiver.url('/hooks');
    const token = await confirm({ action: 'webhook.create', url });
    const other = await w.admin
      .request('post', path())
      .set(CONFIRMATION_HEADER, token)
      .send({ url: receiver.url('/elsewhere') });
    expect(error(other)).toEqual([403, 'passkey_confirmation_required']);
    for (const [body, code] of [
      [{ url: 'http://hooks.example/in' }, [400, 'insecure_endpoint']],
      [{ url: 'ftp://hooks.example/in' }, [400, 'invalid_request']],
      [{ url: 42 }, [400, 'invalid_body']],
      [{ url, eventTypes: ['token_eaten'] }, [400, 'invalid_body']],
      [{ url, secret: 'mine' }, [400, 'unknown_field']],
    ] as const) {
      const res = await w.admin.request('post', path()).set(CONFIRMATION_HEADER, token).send(body);
      expect([body, error(res)]).toEqual([body, code]);
    }
    // Starting a confirmation answers like the operation.
    const refused = await w.admin.request('post', '/api/console/confirmations').send({
      action: 'webhook.create',
      applicationId: w.applicationId,
      url: 'http://hooks.example/in',
    });
    expect(error(refused)).toEqual([400, 'insecure_endpoint']);
    await w.admin.request('post', path()).set(CONFIRMATION_HEADER, token).send({ url }).expect(201);
  });

  it('is for admins: a viewer gets 403, a stranger 404', async () => {
    const { endpoint } = await add();
    for (const [method, suffix] of [
      ['get', ''],
      ['get', `/${endpoint.id}/deliveries`],
      ['post', `/${endpoint.id}/test`],
      ['patch', `/${endpoint.id}`],
    ] as const) {
      expect([suffix, error(await w.viewer.request(method, path(suffix)).send({}))]).toEqual([
        suffix,
        [403, 'forbidden'],
      ]);
      expect([suffix, (await w.stranger.request(method, path(suffix)).send({})).status]).toEqual([
        suffix,
        404,
      ]);
    }
    expect(receiver.received).toEqual([]);
  });

  it("answers 404 for another application's endpoint on every route, spending nothing", async () => {
    const { endpoint } = await add();
    // The stranger's application gets an endpoint of its own, through the service.
    const theirs = (
      await t.dataSource.query<{ id: number }[]>(
        `INSERT INTO webhook_endpoints (application_id, url, secret) VALUES ($1, 'https://x.example/', 'sealed') RETURNING id`,
        [w.otherApplicationId],
      )
    )[0].id;
    const token = await confirm({ action: 'webhook.delete', webhookId: endpoint.id });
    for (const id of [String(theirs), '999', 'abc', '0']) {
      for (const [method, suffix, body] of [
        ['patch', '', { description: 'x' }],
        ['put', '/url', { url: receiver.url('/x') }],
        ['post', '/rotate-secret', {}],
        ['delete', '', {}],
        ['get', '/deliveries', undefined],
        ['post', '/test', {}],
        ['post', '/resend', { eventId: 1 }],
        ['post', '/replay', { fromEventId: 1 }],
      ] as const) {
        const req = w.admin
          .request(method, path(`/${id}${suffix}`))
          .set(CONFIRMATION_HEADER, token);
        const res = await (body === undefined ? req : req.send(body));
        expect([id, method, suffix, res.status]).toEqual([id, method, suffix, 404]);
      }
    }
    const start = await w.admin
      .request('post', '/api/console/confirmations')
      .send({ action: 'webhook.delete', applicationId: w.applicationId, webhookId: theirs });
    expect(error(start)).toEqual([404, 'not_found']);
    // The token still deletes the endpoint it was made for.
    await w.admin
      .request('delete', path(`/${endpoint.id}`))
      .set(CONFIRMATION_HEADER, token)
      .expect(204);
    expect(receiver.received).toEqual([]);
  });

  it('changes types, description and enabled without a passkey; URL, secret and deletion with one', async () => {
    const { endpoint, secret } = await add();
    const patched = await w.admin
      .request('patch', path(`/${endpoint.id}`))
      .send({ eventTypes: ['code_issued'], description: 'Audit', enabled: false })
      .expect(200);
    expect(patched.body).toMatchObject({
      eventTypes: ['code_issued'],
      description: 'Audit',
      enabled: false,
    });
    const enabled = await w.admin
      .request('patch', path(`/${endpoint.id}`))
      .send({ enabled: true })
      .expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, failingSince: null, nextAttemptAt: null });

    const url = receiver.url('/moved');
    const noToken = await w.admin.request('put', path(`/${endpoint.id}/url`)).send({ url });
    expect(error(noToken)).toEqual([403, 'passkey_confirmation_required']);
    const forOther = await confirm({
      action: 'webhook.update_url',
      webhookId: endpoint.id,
      url: receiver.url('/other'),
    });
    expect(
      error(
        await w.admin
          .request('put', path(`/${endpoint.id}/url`))
          .set(CONFIRMATION_HEADER, forOther)
          .send({ url }),
      ),
    ).toEqual([403, 'passkey_confirmation_required']);
    const moved = await w.admin
      .request('put', path(`/${endpoint.id}/url`))
      .set(
        CONFIRMATION_HEADER,
        await confirm({ action: 'webhook.update_url', webhookId: endpoint.id, url }),
      )
      .send({ url })
      .expect(200);
    expect((moved.body as EndpointBody).url).toBe(url);

    const rotated = await w.admin
      .request('post', path(`/${endpoint.id}/rotate-secret`))
      .set(
        CONFIRMATION_HEADER,
        await confirm({ action: 'webhook.rotate_secret', webhookId: endpoint.id }),
      )
      .expect(201);
    const next = rotated.body as { endpoint: EndpointBody; secret: string };
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(secret);
    expect(next.endpoint.previousSecretUntil).toBe(
      new Date(start.getTime() + 24 * 3600_000).toISOString(),
    );

    await w.admin
      .request('delete', path(`/${endpoint.id}`))
      .set(CONFIRMATION_HEADER, await confirm({ action: 'webhook.delete', webhookId: endpoint.id }))
      .expect(204);
    expect((await w.admin.request('get', path()).expect(200)).body).toEqual([]);
    const entries = (await audit()).reverse().filter((e) => e.action.startsWith('webhook.'));
    expect(entries.map((e) => [e.action, (e.details as { via: string }).via, e.actor?.id])).toEqual(
      [
        'webhook.create',
        'webhook.update',
        'webhook.disable',
        'webhook.enable',
        'webhook.update_url',
        'webhook.rotate_secret',
        'webhook.delete',
      ].map((action) => [action, 'console', w.admin.userId]),
    );
    expect(entries[1].details).toEqual({
      via: 'console',
      eventTypes: ['code_issued'],
      description: 'Audit',
    });
    expect(JSON.stringify(entries)).not.toContain('whsec_');
  });

  it('sends a test event the receiver verifies, and shows it in the delivery log', async () => {
    const { endpoint, secret } = await add();
    const res = await w.admin.request('post', path(`/${endpoint.id}/test`)).expect(200);
    expect(res.body).toMatchObject({ kind: 'test', eventId: null, statusCode: 200, error: null });
    const [test] = receiver.received;
    expect(test.id).toMatch(/^test_/);
    expect(test.body).toMatchObject({
      type: 'webhook.test',
      data: { applicationId: w.applicationId, endpointId: endpoint.id },
    });
    expect(() => new Webhook(secret).verify(test.raw, test.headers as never)).not.toThrow();
    const log = (await w.admin.request('get', path(`/${endpoint.id}/deliveries`)).expect(200))
      .body as AttemptBody[];
    expect(log).toEqual([
      expect.objectContaining({ id: (res.body as AttemptBody).id, kind: 'test', eventId: null }),
    ]);
    expect((await audit())[0]).toMatchObject({
      action: 'webhook.test',
      target: `webhook:${endpoint.id}`,
    });
  });

  it("resends one of the application's committed events; another application's is 404", async () => {
    const { endpoint } = await add();
    const event = await record();
    await t.app.get(WebhookDeliveryService).runRound();
    const resent = await w.admin
      .request('post', path(`/${endpoint.id}/resend`))
      .send({ eventId: Number(event) })
      .expect(200);
    expect(resent.body).toMatchObject({ kind: 'resend', eventId: Number(event), statusCode: 200 });
    expect(receiver.ids('/hooks')).toEqual([`evt_${event}`, `evt_${event}`]);
    const theirs = await record(w.otherApplicationId);
    const refused = await w.admin
      .request('post', path(`/${endpoint.id}/resend`))
      .send({ eventId: Number(theirs) });
    expect(error(refused)).toEqual([404, 'not_found']);
    const bad = await w.admin
      .request('post', path(`/${endpoint.id}/resend`))
      .send({ eventId: 'one' });
    expect(error(bad)).toEqual([400, 'invalid_body']);
    const log = (await w.admin.request('get', path(`/${endpoint.id}/deliveries`)).expect(200))
      .body as AttemptBody[];
    expect(log.map((a) => a.kind)).toEqual(['resend', 'delivery']);
  });

  it('replays with a confirmation bound to the start; the rounds send again in order', async () => {
    const { endpoint } = await add();
    const first = await record();
    const second = await record();
    await t.app.get(WebhookDeliveryService).runRound();
    const replayPath = path(`/${endpoint.id}/replay`);
    const forSecond = await confirm({
      action: 'webhook.replay',
      webhookId: endpoint.id,
      fromEventId: Number(second),
    });
    const wrong = await w.admin
      .request('post', replayPath)
      .set(CONFIRMATION_HEADER, forSecond)
      .send({ fromEventId: Number(first) });
    expect(error(wrong)).toEqual([403, 'passkey_confirmation_required']);
    for (const body of [
      {},
      { fromEventId: Number(first), fromTime: start.toISOString() },
      { fromTime: 'soon' },
    ]) {
      const res = await w.admin
        .request('post', replayPath)
        .set(CONFIRMATION_HEADER, forSecond)
        .send(body);
      expect([body, error(res)]).toEqual([body, [400, 'invalid_request']]);
    }
    const theirs = await record(w.otherApplicationId);
    const forTheirs = await confirm({
      action: 'webhook.replay',
      webhookId: endpoint.id,
      fromEventId: Number(theirs),
    });
    const notOurs = await w.admin
      .request('post', replayPath)
      .set(CONFIRMATION_HEADER, forTheirs)
      .send({ fromEventId: Number(theirs) });
    expect(error(notOurs)).toEqual([404, 'not_found']);

    const forFirst = await confirm({
      action: 'webhook.replay',
      webhookId: endpoint.id,
      fromEventId: Number(first),
    });
    const res = await w.admin
      .request('post', replayPath)
      .set(CONFIRMATION_HEADER, forFirst)
      .send({ fromEventId: Number(first) })
      .expect(200);
    expect(res.body).toMatchObject({
      events: 2,
      endpoint: { lastDeliveredEventId: Number(first) - 1 },
    });
    await t.app.get(WebhookDeliveryService).runRound();
    expect(receiver.ids('/hooks')).toEqual([first, second, first, second].map((e) => `evt_${e}`));

    const fromTime = new Date(start.getTime() - 1000).toISOString();
    const byTime = await w.admin
      .request('post', replayPath)
      .set(
        CONFIRMATION_HEADER,
        await confirm({ action: 'webhook.replay', webhookId: endpoint.id, fromTime }),
      )
      .send({ fromTime })
      .expect(200);
    expect((byTime.body as { events: number }).events).toBe(2);
    const [entry] = await audit();
    expect(entry).toMatchObject({
      action: 'webhook.replay',
      actor: { id: w.admin.userId },
      details: {
        via: 'console',
        fromTime,
        cursor: String(Number(first) - 1),
        previousCursor: second,
      },
    });
  });
});
