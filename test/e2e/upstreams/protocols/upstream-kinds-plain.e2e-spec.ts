import type { UpstreamProvider } from '../../../../src/modules/upstreams/providers/upstream-provider';
import {
  ProviderInput,
  UpstreamProvidersService,
} from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { createTestApp, TestApp } from '../../../support/test-app';
import { followToCallback } from '../../../support/upstream-standins/browser';
import {
  DiscourseStandIn,
  startDiscourseStandIn,
} from '../../../support/upstream-standins/discourse';
import { OAuth2StandIn, startOAuth2StandIn } from '../../../support/upstream-standins/oauth2';
import { freshParams } from '../../../support/upstream-standins/params';
import { QqStandIn, startQqStandIn } from '../../../support/upstream-standins/qq';
import { startWechatStandIn, WechatStandIn } from '../../../support/upstream-standins/wechat';

const callbackFor = (id: string) => `http://127.0.0.1:9/api/auth/upstream/${id}/callback`;

/** The kinds wechat, qq, discourse and oauth2 end to end over HTTP against their stand-ins. */
describe('upstream kinds wechat, qq, discourse, oauth2', () => {
  let t: TestApp;
  let service: UpstreamProvidersService;
  let wechat: WechatStandIn;
  let qq: QqStandIn;
  let forum: DiscourseStandIn;
  let generic: OAuth2StandIn;

  beforeAll(async () => {
    t = await createTestApp();
    service = t.app.get(UpstreamProvidersService);
    [wechat, qq, forum, generic] = await Promise.all([
      startWechatStandIn(),
      startQqStandIn(),
      startDiscourseStandIn(),
      startOAuth2StandIn(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([wechat.close(), qq.close(), forum.close(), generic.close()]);
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    wechat.user = {
      openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
      unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
      nickname: '微信用户',
      headimgurl: 'https://thirdwx.qlogo.cn/mmopen/0',
    };
    forum.rewrite = null;
  });

  async function configure(input: Omit<ProviderInput, 'displayName'>): Promise<UpstreamProvider> {
    await service.create({ displayName: input.id, ...input });
    return (await service.find(input.id)) as UpstreamProvider;
  }

  async function signIn(provider: UpstreamProvider) {
    const params = freshParams(callbackFor(provider.id));
    const url = await service.authorizationUrl(provider, params);
    const query = await followToCallback(url, params.redirectUri);
    return { params, query, url };
  }

  describe('wechat', () => {
    const add = (secret = wechat.secret) =>
      configure({
        id: 'wechat',
        kind: 'wechat',
        clientId: wechat.appid,
        clientSecret: secret,
        settings: wechat.settings,
      });

    it('signs in with appid/secret; openid is the subject, unionid in providerData', async () => {
      const provider = await add();
      const { params, query, url } = await signIn(provider);
      expect(url.endsWith('#wechat_redirect')).toBe(true);
      const parsed = new URL(url);
      expect(Object.fromEntries(parsed.searchParams)).toEqual({
        appid: wechat.appid,
        redirect_uri: params.redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state: params.state,
      });
      expect(await service.complete(provider, query, params)).toEqual({
        subject: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
        username: '微信用户',
        email: null,
        emailVerified: false,
        avatar: 'https://thirdwx.qlogo.cn/mmopen/0',
        providerData: {
          openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
          unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
        },
      });
      // Replayed code: errcode 40029 with HTTP 200.
      await expect(service.complete(provider, query, params)).rejects.toMatchObject({
        reason: 'invalid_response',
        message: expect.stringContaining('40029'),
      });
    });

    it('a refusal (state without code) is denied; a wrong secret is errcode 40125', async () => {
      const provider = await add('wrong');
      wechat.user = null;
      const refused = await signIn(provider);
      expect(refused.query.code).toBeUndefined();
      await expect(service.complete(provider, refused.query, refused.params)).rejects.toMatchObject(
        { reason: 'denied' },
      );
      wechat.user = {
        openid: 'o1',
        unionid: 'u1',
        nickname: 'n',
        headimgurl: 'https://thirdwx.qlogo.cn/1',
      };
      const attempt = await signIn(provider);
      await expect(service.complete(provider, attempt.query, attempt.params)).rejects.toMatchObject(
        {
          reason: 'invalid_response',
          message: expect.stringContaining('40125'),
        },
      );
    });
  });

  describe('qq', () => {
    it('token with fmt=json, /oauth2.0/me for openid and unionid, get_user_info with the appid', async () => {
      const provider = await configure({
        id: 'qq',
        kind: 'qq',
        clientId: qq.appid,
        clientSecret: qq.appkey,
        settings: qq.settings,
      });
      const { params, query } = await signIn(provider);
      expect(await service.complete(provider, query, params)).toEqual({
        subject: 'QQOPENID0001',
        username: '小明',
        email: null,
        emailVerified: false,
        avatar: 'https://thirdqq.qlogo.cn/100',
        providerData: { openid: 'QQOPENID0001', unionid: 'UID_QQ_0001' },
      });
      await expect(service.complete(provider, query, params)).rejects.toMatchObject({
        reason: 'invalid_response',
        message: expect.stringContaining('100019'),
      });
    });

    it('a wrong app key is QQ error 100016; an error callback is refused', async () => {
      const provider = await configure({
        id: 'qq',
        kind: 'qq',
        clientId: qq.appid,
        clientSecret: 'wrong',
        settings: qq.settings,
      });
      const { params, query } = await signIn(provider);
      await expect(service.complete(provider, query, params)).rejects.toMatchObject({
        reason: 'invalid_response',
        message: expect.stringContaining('100016'),
      });
      await expect(
        service.complete(provider, { error: 'access_denied', state: params.state }, params),
      ).rejects.toMatchObject({ reason: 'denied' });
    });
  });

  describe('discourse', () => {
    const add = (secret = forum.secret) =>
      configure({
        id: 'forum',
        kind: 'discourse',
        clientId: 'discourse',
        clientSecret: secret,
        settings: { baseUrl: forum.origin },
      });

    it('sends a signed sso with nonce and return_sso_url; verifies sig and nonce on return', async () => {
      const provider = await add();
      const { params, query, url } = await signIn(provider);
      const sent = new URL(url);
      expect(sent.pathname).toBe('/session/sso_provider');
      const payload = new URLSearchParams(
        Buffer.from(sent.searchParams.get('sso') ?? '', 'base64').toString('utf8'),
      );
      expect(Object.fromEntries(payload)).toEqual({
        nonce: params.nonce,
        return_sso_url: params.redirectUri,
      });
      expect(sent.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
      expect(await service.complete(provider, query, params)).toEqual({
        subject: '17',
        username: 'forumfan',
        email: 'fan@forum.example',
        emailVerified: true,
        avatar: 'https://forum.example/avatar/17.png',
        providerData: {
          name: 'Forum Fan',
          groups: 'trust_level_0,trust_level_1',
          admin: false,
          moderator: true,
        },
      });
      // Another attempt's nonce (a replayed or foreign answer) is refused.
      await expect(
        service.complete(provider, query, { ...params, nonce: 'another' }),
      ).rejects.toMatchObject({ reason: 'invalid_state' });
    });

    it('refuses a tampered payload, a wrong signature and a forum that rejects our sig', async () => {
      const provider = await add();
      const { params, query } = await signIn(provider);
      const tampered = Buffer.from(
        Buffer.from(query.sso, 'base64')
          .toString('utf8')
          .replace('external_id=17', 'external_id=1'),
      ).toString('base64');
      await expect(
        service.complete(provider, { ...query, sso: tampered }, params),
      ).rejects.toMatchObject({
        reason: 'invalid_response',
        message: expect.stringMatching(/signature/),
      });
      await expect(
        service.complete(provider, { ...query, sig: '0'.repeat(64) }, params),
      ).rejects.toMatchObject({ reason: 'invalid_response' });
      await expect(service.complete(provider, {}, params)).rejects.toMatchObject({
        reason: 'invalid_response',
      });

      await service.update('forum', { clientSecret: 'not-the-forum-secret' });
      const wrong = (await service.find('forum')) as UpstreamProvider;
      const params2 = freshParams(callbackFor('forum'));
      await expect(
        followToCallback(await service.authorizationUrl(wrong, params2), params2.redirectUri),
      ).rejects.toThrow(/422/);
    });
  });

  describe('oauth2', () => {
    const add = () =>
      configure({
        id: 'generic',
        kind: 'oauth2',
        clientId: generic.clientId,
        clientSecret: generic.clientSecret,
        settings: {
          ...generic.settings,
          scope: 'profile',
          profileFields: {
            subject: 'data.id',
            username: 'data.login',
            email: 'data.contact.mail',
            emailVerified: 'data.contact.ok',
            avatar: 'data.pic',
          },
        },
      });

    it('reads the configured JSON paths; numbers become strings; PKCE is checked', async () => {
      generic.profile = {
        data: {
          id: 4711,
          login: 'gen',
          contact: { mail: 'g@x.example', ok: true },
          pic: 'https://x.example/p',
        },
      };
      const provider = await add();
      const { params, query } = await signIn(provider);
      expect(query.error).toBeUndefined();
      expect(await service.complete(provider, query, params)).toEqual({
        subject: '4711',
        username: 'gen',
        email: 'g@x.example',
        emailVerified: true,
        avatar: 'https://x.example/p',
        providerData: {},
      });
      await expect(service.complete(provider, query, params)).rejects.toMatchObject({
        reason: 'invalid_response',
        message: expect.stringContaining('invalid_grant'),
      });
    });

    it('a profile without the subject path is an invalid response; unverified stays unverified', async () => {
      const provider = await add();
      generic.profile = { data: { login: 'nobody' } };
      let attempt = await signIn(provider);
      await expect(service.complete(provider, attempt.query, attempt.params)).rejects.toMatchObject(
        { reason: 'invalid_response' },
      );
      generic.profile = { data: { id: 'abc', contact: { mail: 'm@x.example', ok: false } } };
      attempt = await signIn(provider);
      expect(await service.complete(provider, attempt.query, attempt.params)).toEqual(
        expect.objectContaining({ subject: 'abc', email: 'm@x.example', emailVerified: false }),
      );
    });
  });
});
