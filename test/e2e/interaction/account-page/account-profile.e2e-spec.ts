import { createUser } from '../../../factories';
import { accountBrowser, formToken, postAccountForm } from '../../../support/account';
import { PASSWORD } from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** The profile section of the account page (docs/accounts.md). */
describe('Account page: profile', () => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    const user = await createUser(t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
    userId = user.id;
  });

  const profile = async () =>
    (
      await t.dataSource.query<{ nickname: string; avatar: string }[]>(
        'SELECT nickname, avatar FROM users WHERE id = $1',
        [userId],
      )
    )[0];

  it('saves the nickname and an https avatar, trimmed, and shows them', async () => {
    const agent = await accountBrowser(t.app);
    const res = await postAccountForm(agent, '/account/profile', {
      nickname: '  Ally  ',
      avatar: ' https://cdn.example/ally.png ',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account?done=profile');
    expect(await profile()).toEqual({ nickname: 'Ally', avatar: 'https://cdn.example/ally.png' });
    const page = await agent.get(res.headers.location);
    expect(page.text).toContain('Your profile was saved.');
    expect(page.text).toContain('value="Ally"');
    expect(page.text).toContain('<img class="logo" src="https://cdn.example/ally.png"');
    // Emptying both clears them; http on a loopback host is allowed (development).
    await postAccountForm(agent, '/account/profile', { nickname: '', avatar: '' });
    expect(await profile()).toEqual({ nickname: '', avatar: '' });
    await postAccountForm(agent, '/account/profile', { avatar: 'http://localhost:8080/me.png' });
    expect((await profile()).avatar).toBe('http://localhost:8080/me.png');
  });

  it.each([
    ['http off loopback', { avatar: 'http://cdn.example/a.png' }, 'The avatar must be'],
    ['javascript:', { avatar: 'javascript:alert(1)' }, 'The avatar must be'],
    ['a too long nickname', { nickname: 'n'.repeat(65) }, 'The nickname must be at most 64'],
  ])('refuses %s with 400 on the page and saves nothing', async (_, fields, message) => {
    const agent = await accountBrowser(t.app);
    await postAccountForm(agent, '/account/profile', { nickname: 'Before' });
    const res = await postAccountForm(agent, '/account/profile', { nickname: 'After', ...fields });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toContain(message);
    // The form shows what was typed, so it can be corrected.
    const typed = fields as { nickname?: string };
    expect(res.text).toContain(`value="${typed.nickname ?? 'After'}"`);
    expect((await profile()).nickname).toBe('Before');
  });

  it('refuses a control character with the 400 page of every form (docs/errors.md) and saves nothing', async () => {
    const agent = await accountBrowser(t.app);
    await postAccountForm(agent, '/account/profile', { nickname: 'Before' });
    const res = await postAccountForm(agent, '/account/profile', { nickname: 'a\u0007b' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toContain('control character');
    expect((await profile()).nickname).toBe('Before');
  });

  it('refuses a profile form without the token of this session for it (403)', async () => {
    const agent = await accountBrowser(t.app);
    const page = await agent.get('/account');
    const res = await agent
      .post('/account/profile')
      .type('form')
      .send({ csrf_token: formToken(page.text, '/account/password'), nickname: 'Mallory' });
    expect(res.status).toBe(403);
    // A token of another session of the same user does not fit either.
    const other = await accountBrowser(t.app);
    const stolen = await other
      .post('/account/profile')
      .type('form')
      .send({ csrf_token: formToken(page.text, '/account/profile'), nickname: 'Mallory' });
    expect(stolen.status).toBe(403);
    expect((await profile()).nickname).toBe('');
  });
});
