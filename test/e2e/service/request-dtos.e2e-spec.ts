import { createUser } from '../../factories';
import { bearer, relate, twoApplications } from '../../factories/app-users';
import { consoleWorld, type ConsoleWorld } from '../../support/console';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * Bodies and query strings checked as DTOs (docs/errors.md, "Bodies and query strings as
 * DTOs"): the order of the checks, repeated and out-of-range query parameters, unknown fields
 * on every console body, and the checks that come after the console's role.
 */
describe('request DTOs: bodies and query strings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  describe('application API', () => {
    let key: string;
    let userId: string;
    beforeEach(async () => {
      const apps = await twoApplications(t, ['user:read', 'user:write', 'group:write']);
      key = apps.keyA;
      userId = (await createUser(t.app)).id;
      await relate(t, apps.appA, userId, { group: 't0' });
    });
    const get = (path: string) =>
      t
        .http()
        .get(path)
        .set(...bearer(key));
    const patch = (id: string, body: unknown) =>
      t
        .http()
        .patch(`/api/v1/app/users/${id}`)
        .set(...bearer(key))
        .send(body as object);

    it.each([
      ['pageSize=99999999999999999999999', { page: 1, pageSize: 100 }],
      ['pageSize=100', { page: 1, pageSize: 100 }],
      ['page=1000000000&pageSize=0001', { page: 1_000_000_000, pageSize: 1 }],
    ])('GET /users?%s clamps or keeps the numbers: %j', async (query, paging) => {
      const res = await get(`/api/v1/app/users?${query}`).expect(200);
      expect(res.body).toMatchObject(paging);
    });

    it.each([
      'page=99999999999999999999999',
      'page=1e3',
      'page=%201',
      'pageSize=1&pageSize=1',
      'group=t1&group=t2',
      'enabled=true&enabled=true',
      'keyword=a&keyword=b',
      'enabled=',
      'group=',
    ])('GET /users?%s is 400 invalid_query', async (query) => {
      const res = await get(`/api/v1/app/users?${query}`).expect(400);
      expect(res.body).toEqual({ error: 'invalid_query', message: expect.any(String) });
    });

    it('GET /events clamps a limit too long to be a number and refuses a repeated type', async () => {
      const clamped = await get('/api/v1/app/events?limit=99999999999999999999999').expect(200);
      expect(clamped.body.items).toEqual([]);
      for (const query of ['eventType=token_issued&eventType=token_issued', 'before=&limit=1']) {
        const res = await get(`/api/v1/app/events?${query}`).expect(400);
        expect([query, res.body.error]).toEqual([query, 'invalid_query']);
      }
    });

    it('PATCH checks the id before the body, unknown fields before types, types before empty', async () => {
      expect((await patch('12x', [])).body.error).toBe('invalid_user_id');
      expect((await patch('12x', { authCount: 1 })).body.error).toBe('invalid_user_id');
      const unknown = await patch(userId, { enabled: 'no', id: 1, group: 7, authCount: 2 });
      expect(unknown.body).toEqual({
        error: 'unknown_field',
        message: expect.any(String),
        fields: ['id', 'authCount'],
      });
      expect((await patch(userId, { group: 7 })).body.error).toBe('invalid_body');
      expect((await patch(userId, { enabled: true, group: 'nope' })).body.error).toBe(
        'invalid_group',
      );
    });
  });

  describe('console', () => {
    let w: ConsoleWorld;
    beforeEach(async () => {
      w = await consoleWorld(t);
    });
    const app = () => `/api/console/applications/${w.applicationId}`;

    it('refuses unknown fields with unknown_field on every body, listing them', async () => {
      const cases: [ReturnType<typeof w.owner.request>, unknown][] = [
        [t.http().post('/api/console/session'), { login: 'owner', password: 'x', remember: true }],
        [w.owner.request('post', '/api/console/applications'), { name: 'A', remember: true }],
        [w.owner.request('patch', app()), { name: 'B', remember: true }],
        [
          w.owner.request('post', `${app()}/keys`),
          { name: 'k', scopes: ['user:read'], remember: 1 },
        ],
        [
          w.owner.request('put', `${app()}/members/${w.member.userId}`),
          { role: 'viewer', remember: 1 },
        ],
        [
          w.owner.request('patch', `${app()}/users/${w.member.userId}`),
          { enabled: true, remember: 1 },
        ],
        [
          w.owner.request('post', '/api/console/confirmations'),
          { action: 'key.create', applicationId: w.applicationId, remember: 1 },
        ],
        [
          w.owner.request(
            'post',
            '/api/console/confirmations/f0000000-0000-4000-8000-000000000000',
          ),
          { response: {}, remember: 1 },
        ],
        [w.owner.request('post', '/api/console/account/passkeys'), { response: {}, remember: 1 }],
        [
          w.owner.request(
            'patch',
            '/api/console/account/passkeys/f0000000-0000-4000-8000-000000000000',
          ),
          { name: 'x', remember: 1 },
        ],
        [t.http().post('/api/console/session/passkey'), { response: {}, remember: 1 }],
      ];
      for (const [request, body] of cases) {
        const res = await request.send(body as object);
        expect([JSON.stringify(body), res.status, res.body]).toEqual([
          JSON.stringify(body),
          400,
          { error: 'unknown_field', message: expect.any(String), fields: ['remember'] },
        ]);
      }
    });

    it('answers the role before the body or the query (404 / 403 first)', async () => {
      const viewerPatch = await w.viewer.request('patch', app()).send({ remember: 1 });
      expect([viewerPatch.status, viewerPatch.body.error]).toEqual([403, 'forbidden']);
      const strangerList = await w.stranger.request('get', `${app()}/users?page=0`);
      expect([strangerList.status, strangerList.body.error]).toEqual([404, 'not_found']);
      const viewerAudit = await w.viewer.request('get', `${app()}/audit-log?limit=0`);
      expect([viewerAudit.status, viewerAudit.body.error]).toEqual([403, 'forbidden']);
      const viewerKey = await w.viewer.request('post', `${app()}/keys`).send([]);
      expect([viewerKey.status, viewerKey.body.error]).toEqual([403, 'forbidden']);
    });

    it('answers a bad :userId before the body, after the role', async () => {
      const member = await w.owner
        .request('put', `${app()}/members/12x`)
        .send({ role: 'viewer', remember: 1 });
      expect([member.status, member.body.error]).toEqual([400, 'invalid_user_id']);
      for (const body of [[], { enabled: 'no' }, { authCount: 1 }]) {
        const res = await w.admin.request('patch', `${app()}/users/12x`).send(body);
        expect([JSON.stringify(body), res.status, res.body.error]).toEqual([
          JSON.stringify(body),
          400,
          'invalid_user_id',
        ]);
      }
      const viewer = await w.viewer.request('patch', `${app()}/users/12x`).send([]);
      expect([viewer.status, viewer.body.error]).toEqual([403, 'forbidden']);
    });

    it('checks the console queries like the application API', async () => {
      for (const path of [
        `${app()}/users?page=1&page=2`,
        `${app()}/users?pageSize=abc`,
        `${app()}/events?limit=1&limit=2`,
        `${app()}/events?beforeId=1`,
        `${app()}/audit-log?before=1&before=2`,
        `${app()}/audit-log?limit=-1`,
      ]) {
        const res = await w.admin.request('get', path);
        expect([path, res.status, res.body.error]).toEqual([path, 400, 'invalid_query']);
      }
      const clamped = await w.admin.request('get', `${app()}/users?pageSize=${'9'.repeat(30)}`);
      expect([clamped.status, clamped.body.pageSize]).toEqual([200, 100]);
    });

    it('refuses mistyped passkey and confirmation fields as invalid_body', async () => {
      const signIn = await t
        .http()
        .post('/api/console/session/passkey')
        .send({ ceremonyId: 7, response: {} });
      expect([signIn.status, signIn.body.error]).toEqual([400, 'invalid_body']);
      const answer = await w.owner
        .request('post', '/api/console/confirmations/f0000000-0000-4000-8000-000000000000')
        .send({ response: 'nope' });
      expect([answer.status, answer.body.error]).toEqual([400, 'invalid_body']);
      const login = await t
        .http()
        .post('/api/console/session')
        .send({ login: 'x', password: null });
      expect([login.status, login.body.error]).toEqual([400, 'invalid_body']);
    });
  });
});
