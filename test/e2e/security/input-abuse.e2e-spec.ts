import { createUser } from '../../factories';
import { bearer, relate, twoApplications } from '../../factories/app-users';
import { consoleSession, consoleWorld } from '../../support/console';
import { browser, expectStatus, hiddenInput } from '../../support/oauth';
import { concretePath, listRoutes } from '../../support/routes';
import { useMailboxBed } from '../../support/mailbox-bed';

/**
 * docs/security.md, "Abuse cases", request input: bodies built to break the parser or the
 * objects behind it, and header injection into the service's mail.
 */
describe('request input abuse cases', () => {
  const bed = useMailboxBed();

  async function relatedUser(): Promise<{ key: string; userId: string }> {
    const apps = await twoApplications(bed.t, ['user:read', 'user:write']);
    const userId = (await createUser(bed.t.app)).id;
    await relate(bed.t, apps.appA, userId, { group: 't0' });
    return { key: apps.keyA, userId };
  }

  it('answers a deeply nested JSON body with 400, never a 500', async () => {
    const { key, userId } = await relatedUser();
    // 20,000 levels: well inside the 100 kB body limit, deep enough for any recursive walker.
    const depth = 20_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const res = await bed.t
      .http()
      .patch(`/api/v1/app/users/${userId}`)
      .set(...bearer(key))
      .set('Content-Type', 'application/json')
      .send(`{"nickname":${nested}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_body');
    // The service still answers.
    const after = await bed.t
      .http()
      .get(`/api/v1/app/users/${userId}`)
      .set(...bearer(key));
    expect(after.status).toBe(200);
  });

  it('lets no route answer 5xx to a deeply nested JSON body', async () => {
    const { key } = await relatedUser();
    const w = await consoleWorld(bed.t);
    const depth = 20_000;
    const body = `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const failures: string[] = [];
    for (const route of listRoutes(bed.t.app)) {
      const method = route.method.toLowerCase() as 'post' | 'put' | 'patch';
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const owner = await consoleSession(bed.t, w.owner.userId);
      const res = await owner
        .request(method, concretePath(route.path))
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .send(body);
      if (res.status >= 500) failures.push(`${route.method} ${route.path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses the keys that reach a prototype as unknown fields and pollutes no prototype', async () => {
    const { key, userId } = await relatedUser();
    for (const body of [
      '{"__proto__":{"polluted":"yes"},"nickname":"n"}',
      '{"constructor":{"prototype":{"polluted":"yes"}},"nickname":"n"}',
    ]) {
      const res = await bed.t
        .http()
        .patch(`/api/v1/app/users/${userId}`)
        .set(...bearer(key))
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('unknown_field');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Nothing was written: the nickname is unchanged.
    const user = await bed.t
      .http()
      .get(`/api/v1/app/users/${userId}`)
      .set(...bearer(key));
    expect(user.body.nickname).not.toBe('n');
  });

  it('lets no CR/LF in an address reach a mail header: 400, and the only mail sent is a real one', async () => {
    await createUser(bed.t.app, { username: 'alice', email: 'alice@example.org' });
    const agent = browser(bed.t.app);
    const page = await agent.get('/oauth2/forgot-password');
    expectStatus(page, 200);
    const injected = await agent
      .post('/oauth2/forgot-password')
      .type('form')
      .send({
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        email: 'alice@example.org\r\nBcc: mallory@example.net',
      });
    expectStatus(injected, 400);
    // A real request afterwards: its mail is the only one, to alice alone.
    const again = await agent.get('/oauth2/forgot-password');
    const asked = await agent
      .post('/oauth2/forgot-password')
      .type('form')
      .send({ csrf_token: hiddenInput(again.text, 'csrf_token'), email: 'alice@example.org' });
    expectStatus(asked, 303);
    const mail = await bed.mailbox.next('alice@example.org');
    expect(mail.to).toEqual(['alice@example.org']);
    expect(bed.mailbox.received.flatMap((m) => m.to)).not.toContain('mallory@example.net');
    expect(bed.mailbox.clientBytes()).not.toMatch(/mallory/i);
  });
});
