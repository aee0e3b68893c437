import {
  UpstreamError,
  UpstreamProvider,
} from '../../../../src/modules/upstreams/providers/upstream-provider';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { createTestApp, TestApp } from '../../../support/test-app';
import { followToCallback } from '../../../support/upstream-standins/browser';
import {
  GithubStandIn,
  GithubUser,
  startGithubStandIn,
} from '../../../support/upstream-standins/github';
import { freshParams } from '../../../support/upstream-standins/params';

const CALLBACK = 'http://127.0.0.1:9/api/auth/upstream/github/callback';

const OCTOCAT: GithubUser = {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  avatar_url: 'https://avatars.githubusercontent.com/u/583231',
  emails: [
    { email: 'old@example.com', primary: false, verified: true, visibility: null },
    { email: 'octocat@github.com', primary: true, verified: true, visibility: 'public' },
  ],
};

/** The kind `github` end to end over HTTP against a stand-in following GitHub's protocol. */
describe('upstream kind github', () => {
  let t: TestApp;
  let gh: GithubStandIn;
  let service: UpstreamProvidersService;

  beforeAll(async () => {
    t = await createTestApp();
    gh = await startGithubStandIn();
    service = t.app.get(UpstreamProvidersService);
  });
  afterAll(async () => {
    await gh.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    gh.user = OCTOCAT;
  });

  async function configure(secret = gh.clientSecret): Promise<UpstreamProvider> {
    await service.create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: gh.clientId,
      clientSecret: secret,
      settings: gh.settings,
    });
    return (await service.find('github')) as UpstreamProvider;
  }

  async function signIn(provider: UpstreamProvider) {
    const params = freshParams(CALLBACK);
    const url = await service.authorizationUrl(provider, params);
    const query = await followToCallback(url, CALLBACK);
    return { params, query, url: new URL(url) };
  }

  it('authorizes with state and PKCE, exchanges the code and reads /user and the primary email', async () => {
    const provider = await configure();
    const { params, query, url } = await signIn(provider);
    expect(Object.fromEntries(url.searchParams)).toEqual(
      expect.objectContaining({
        client_id: gh.clientId,
        redirect_uri: CALLBACK,
        state: params.state,
        code_challenge_method: 'S256',
      }),
    );
    expect(query.state).toBe(params.state);
    expect(await service.complete(provider, query, params)).toEqual({
      subject: '583231',
      username: 'octocat',
      email: 'octocat@github.com',
      emailVerified: true,
      avatar: 'https://avatars.githubusercontent.com/u/583231',
      providerData: { login: 'octocat', name: 'The Octocat' },
    });

    // Replayed callback: GitHub answers 200 with error bad_verification_code.
    await expect(service.complete(provider, query, params)).rejects.toMatchObject({
      reason: 'invalid_response',
      message: expect.stringContaining('bad_verification_code'),
    });
  });

  it('an unverified primary email is not verified; no primary email gives none', async () => {
    const provider = await configure();
    gh.user = {
      ...OCTOCAT,
      emails: [{ email: 'new@example.com', primary: true, verified: false, visibility: null }],
    };
    let attempt = await signIn(provider);
    expect(await service.complete(provider, attempt.query, attempt.params)).toEqual(
      expect.objectContaining({ email: 'new@example.com', emailVerified: false }),
    );
    gh.user = { ...OCTOCAT, emails: [] };
    attempt = await signIn(provider);
    expect(await service.complete(provider, attempt.query, attempt.params)).toEqual(
      expect.objectContaining({ email: null, emailVerified: false }),
    );
  });

  it('maps denial, a wrong verifier, wrong client credentials and an unreachable GitHub', async () => {
    const provider = await configure();
    gh.user = null;
    const denied = await signIn(provider);
    expect(denied.query.error).toBe('access_denied');
    await expect(service.complete(provider, denied.query, denied.params)).rejects.toMatchObject({
      reason: 'denied',
    });

    gh.user = OCTOCAT;
    const attempt = await signIn(provider);
    const error = (await service
      .complete(provider, attempt.query, { ...attempt.params, codeVerifier: 'x'.repeat(43) })
      .catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.reason).toBe('invalid_response');

    await service.update('github', { clientSecret: 'wrong' });
    const wrongSecret = (await service.find('github')) as UpstreamProvider;
    const again = await signIn(wrongSecret);
    await expect(service.complete(wrongSecret, again.query, again.params)).rejects.toMatchObject({
      reason: 'invalid_response',
      message: expect.stringContaining('incorrect_client_credentials'),
    });

    const down = {
      ...provider,
      settings: { ...provider.settings, tokenUrl: 'http://127.0.0.1:9/t' },
    };
    await expect(
      service.complete(down, { code: 'c', state: 's' }, attempt.params),
    ).rejects.toMatchObject({ reason: 'unavailable' });
    await expect(service.complete(provider, { state: 's' }, attempt.params)).rejects.toMatchObject({
      reason: 'invalid_response',
    });
  });
});
