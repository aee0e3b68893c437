import { createApiKey, createApplication } from '../../factories';
import { createTestApp, TestApp } from '../../support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('serves /me for a fresh key', async () => {
    const { application } = await createApplication(t.app, { name: 'Smoke' });
    const { plaintext } = await createApiKey(t.app, application.id, ['user:read']);
    const res = await t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`);
    expect(res.status).toBe(200);
    expect(res.body.app.name).toBe('Smoke');
  });
});
