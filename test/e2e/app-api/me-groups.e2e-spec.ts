import { createApiKey, createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// docs/contract/me.md, docs/contract/groups.md: GET /me and GET /groups.
describe('GET /me and GET /groups', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('returns exactly the App and ApiKey fields of section 2', async () => {
    t.clock.set(new Date('2026-03-01T10:00:00.000Z'));
    const { application } = await createApplication(t.app, {
      name: 'Forum',
      description: 'A discussion board',
      homeUrl: 'https://forum.example',
      logo: 'https://forum.example/logo.png',
    });
    const { plaintext, apiKey } = await createApiKey(
      t.app,
      application.id,
      ['user:read', 'stats:read'],
      'backend',
    );
    t.clock.set(new Date('2026-03-01T10:05:00.000Z'));

    const res = await t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['apiKey', 'app']);
    expect(res.body.app).toEqual({
      id: application.id,
      name: 'Forum',
      description: 'A discussion board',
      homeUrl: 'https://forum.example',
      logo: 'https://forum.example/logo.png',
      enabled: true,
      isPublic: false,
      createdAt: expect.stringMatching(RFC3339),
    });
    expect(res.body.apiKey).toEqual({
      id: apiKey.id,
      name: 'backend',
      keyPrefix: plaintext.slice(0, 12),
      scopes: ['user:read', 'stats:read'],
      status: 'active',
      lastUsedAt: '2026-03-01T10:05:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect(Number.isInteger(res.body.app.id)).toBe(true);
    expect(Number.isInteger(res.body.apiKey.id)).toBe(true);
    expect(res.body.apiKey.keyPrefix).toHaveLength(12);
  });

  it('shows only the calling key’s application', async () => {
    const a = await createApplication(t.app, { name: 'A' });
    const b = await createApplication(t.app, { name: 'B' });
    const keyA = await createApiKey(t.app, a.application.id);
    const keyB = await createApiKey(t.app, b.application.id);
    const resA = await t
      .http()
      .get('/api/v1/app/me')
      .set('Authorization', `Bearer ${keyA.plaintext}`);
    const resB = await t
      .http()
      .get('/api/v1/app/me')
      .set('Authorization', `Bearer ${keyB.plaintext}`);
    expect([resA.body.app.name, resA.body.apiKey.id]).toEqual(['A', keyA.apiKey.id]);
    expect([resB.body.app.name, resB.body.apiKey.id]).toEqual(['B', keyB.apiKey.id]);
  });

  it('lists the eight groups with inheritance expanded and a note', async () => {
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id);
    const res = await t
      .http()
      .get('/api/v1/app/groups')
      .set('Authorization', `Bearer ${plaintext}`);

    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['items', 'note']);
    expect(typeof res.body.note).toBe('string');
    expect(res.body.note.length).toBeGreaterThan(0);
    const implied = Object.fromEntries(
      res.body.items.map((g: { code: string; impliedGroups: string[] }) => [
        g.code,
        g.impliedGroups,
      ]),
    );
    expect(implied).toEqual({
      admin: ['admin', 'viewer', 't0', 't1', 't2', 't3', 't4', 't5'],
      viewer: ['viewer'],
      t0: ['t0'],
      t1: ['t0', 't1'],
      t2: ['t0', 't1', 't2'],
      t3: ['t0', 't1', 't2', 't3'],
      t4: ['t0', 't1', 't2', 't3', 't4'],
      t5: ['t0', 't1', 't2', 't3', 't4', 't5'],
    });
    for (const group of res.body.items) {
      expect(Object.keys(group).sort()).toEqual(['code', 'description', 'impliedGroups']);
      expect(group.description).toEqual(expect.any(String));
      expect(group.description.length).toBeGreaterThan(0);
    }
  });
});
