import { BOLD } from '../../../../src/common/i18n/i18n';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { createApplication, createUser } from '../../../factories';
import { catalogOf, expectMailIn, expectPageIn } from '../../../support/languages';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  expectStatus,
  hiddenInput,
  ISSUER,
  login,
  oauthSetup,
  PASSWORD,
  pkce,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { codeOf } from '../../../support/smtp-server';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { startOidcStandIn, type OidcStandIn } from '../../../support/upstream-standins/oidc';
import { useMailboxBed } from '../../../support/mailbox-bed';

// The later steps of an authorization in Chinese (docs/languages.md): select account, email
// verification (the step and its code page) and bind upstream, each reached with the request's
// ui_locales from an English browser, and with the browser's own Accept-Language. The words
// are read from the catalog, and each page's title is also written out, so that a Chinese
// catalog left in English fails.

const CALLBACK = `${ISSUER}/api/auth/upstream/corp/callback`;
const zh = catalogOf('zh-CN');

interface Way {
  way: string;
  /** What the authorization request adds. */
  extra: Record<string, string>;
  /** The browser's Accept-Language. */
  browserLanguage: string;
  /** Whether the pages offer the language switcher. */
  switcher: boolean;
}

const WAYS: Way[] = [
  // The application asked: the browser's English does not count, and there is no switcher.
  {
    way: 'ui_locales=zh-CN',
    extra: { ui_locales: 'zh-CN' },
    browserLanguage: 'en',
    switcher: false,
  },
  // The browser asked: the page offers English.
  { way: 'Accept-Language: zh-CN', extra: {}, browserLanguage: 'zh-CN', switcher: true },
];

/** A Chinese page with `words`, with the language switcher or without. */
function expectChinese(text: string, switcher: boolean, ...words: string[]): void {
  expectPageIn(text, 'zh-CN', ...words);
  expect(text.includes('/oauth2/language?')).toBe(switcher);
}

const form = (page: string, fields: Record<string, string> = {}) => ({
  request: hiddenInput(page, 'request'),
  csrf_token: hiddenInput(page, 'csrf_token'),
  ...fields,
});

describe('authorization steps in Chinese', () => {
  const bed = useMailboxBed();
  let upstream: OidcStandIn;
  beforeAll(async () => {
    upstream = await startOidcStandIn([CALLBACK]);
  });
  afterAll(async () => {
    await upstream?.close();
  });

  /** A browser whose every request names `browserLanguage` in Accept-Language. */
  const browserOf = ({ browserLanguage }: Way): Agent =>
    browser(bed.t.app).set('Accept-Language', browserLanguage);

  /** Signs alice in on the login page of a request (with `extra`); answers where it leads. */
  async function signIn(
    agent: Agent,
    { extra }: Way,
    clientId: string,
    scope = 'openid',
  ): Promise<string> {
    const res = await login(agent, { clientId, scope, challenge: pkce().challenge, extra });
    expectStatus(res, 303);
    return res.headers.location;
  }

  it.each(WAYS)('shows the select-account page, $way', async (way) => {
    const { extra, switcher } = way;
    const { application } = await oauthSetup(bed.t.app);
    const agent = browserOf(way);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      scope: 'openid',
      challenge: pkce().challenge,
    });
    const start = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          scope: 'openid',
          challenge: pkce().challenge,
          extra: { prompt: 'select_account', ...extra },
        }),
      ),
    );
    expectStatus(start, 302);
    expect(start.headers.location).toMatch(/^\/oauth2\/select-account\?request=/);
    const page = await agent.get(start.headers.location);
    expectStatus(page, 200);
    expectChinese(
      page.text,
      switcher,
      '<title>选择账号</title>',
      zh.rich('common.continueTo', { application: 'Demo App' }, BOLD).text,
      zh.t('selectAccount.continueAs', { username: 'alice' }),
      zh.t('selectAccount.useAnother'),
    );
  });

  it.each(WAYS)(
    'shows the email verification step, its code page and its email, $way',
    async (way) => {
      const { switcher } = way;
      const { application } = await createApplication(bed.t.app, {
        name: 'Demo App',
        authMethod: 'none',
        redirectUris: [REDIRECT_URI],
        requireVerifiedEmail: true,
      });
      await createUser(bed.t.app, {
        username: 'alice',
        email: 'alice@example.org',
        password: PASSWORD,
        emailVerified: false,
      });
      const agent = browserOf(way);
      const next = await signIn(agent, way, application.clientId, 'openid email');
      expect(next).toMatch(/^\/oauth2\/verify-email\?request=/);
      const step = await agent.get(next);
      expectStatus(step, 200);
      expectChinese(
        step.text,
        switcher,
        '<title>验证邮箱</title>',
        zh.rich('verifyEmail.lead', { application: 'Demo App', username: 'alice' }, BOLD).text,
        zh.rich('verifyEmail.sendTo', { email: 'alice@example.org' }, BOLD).text,
        zh.t('verifyEmail.submit'),
      );

      const sent = await agent.post('/oauth2/verify-email').type('form').send(form(step.text));
      expectStatus(sent, 303);
      const codePage = await agent.get(sent.headers.location);
      expectStatus(codePage, 200);
      expectChinese(
        codePage.text,
        switcher,
        '<title>查收邮件</title>',
        zh.rich('verifyEmail.codeLead', { application: 'Demo App' }, BOLD).text,
        zh.t('verifyEmail.sendNewCode'),
      );
      const mail = await bed.mailbox.next('alice@example.org');
      expectMailIn(
        mail,
        'zh-CN',
        zh.t('mail.verification.subject', { code: codeOf(mail), site: '127.0.0.1:3000' }),
        zh.t('mail.verification.action'),
      );

      // The right code: the authorization goes on, in the same language.
      const verified = await agent
        .post('/oauth2/verify-email/code')
        .type('form')
        .send(form(codePage.text, { id: hiddenInput(codePage.text, 'id'), code: codeOf(mail) }));
      expectStatus(verified, 303);
      const consent = await agent.get(verified.headers.location);
      expectChinese(consent.text, switcher, '<title>授权访问</title>', zh.t('consent.approve'));
    },
  );

  it.each(WAYS)(
    'shows the bind-upstream page, and the consent page after the provider, $way',
    async (way) => {
      const { switcher } = way;
      const { application } = await oauthSetup(bed.t.app);
      await bed.t.app.get(UpstreamProvidersService).create({
        id: 'corp',
        displayName: 'Corp SSO',
        kind: 'oidc',
        clientId: upstream.clientId,
        clientSecret: upstream.clientSecret,
        settings: { issuer: upstream.issuer },
      });
      await bed.t.dataSource.query(
        'UPDATE applications SET required_upstreams = $2 WHERE id = $1',
        [application.id, ['corp']],
      );
      upstream.account = {
        sub: 'corp-7',
        email: 'wei@corp.example',
        email_verified: true,
        preferred_username: 'wei',
      };
      const agent = browserOf(way);
      const next = await signIn(agent, way, application.clientId);
      expect(next).toMatch(/^\/oauth2\/bind-upstream\?request=/);
      const page = await agent.get(next);
      expectStatus(page, 200);
      expectChinese(
        page.text,
        switcher,
        '<title>绑定账号</title>',
        zh.rich('bindUpstream.lead', { application: 'Demo App', username: 'alice' }, BOLD).text,
        zh.t('bindUpstream.choose'),
        zh.t('bindUpstream.bind', { provider: 'Corp SSO' }),
      );

      const start = await agent
        .post('/api/auth/upstream/corp/bind')
        .type('form')
        .send(form(page.text));
      expectStatus(start, 200);
      expectPageIn(start.text, 'zh-CN');
      const provider = [...start.text.matchAll(/href="([^"]+)"/g)]
        .map((match) => match[1].replace(/&amp;/g, '&'))
        .find((link) => link.startsWith(upstream.issuer));
      const back = await agent.get(await visitUpstream(provider!, ISSUER));
      expectStatus(back, 302);
      const consent = await agent.get(back.headers.location);
      expectChinese(consent.text, switcher, '<title>授权访问</title>', zh.t('consent.approve'));
    },
  );
});
