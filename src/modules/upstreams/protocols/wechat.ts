import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { UpstreamError } from '../providers/upstream-provider';
import { fetchJson, stringField, text } from './http';
import type { KindClient } from './kind-client';

const DEFAULTS = {
  authorizationUrl: 'https://open.weixin.qq.com/connect/qrconnect',
  tokenUrl: 'https://api.weixin.qq.com/sns/oauth2/access_token',
  profileUrl: 'https://api.weixin.qq.com/sns/userinfo',
};

/** WeChat answers errors as HTTP 200 with errcode/errmsg; errcode 0 or absent is success. */
function checkErrcode(body: Record<string, unknown>, what: string): void {
  if (body.errcode !== undefined && body.errcode !== 0) {
    throw new UpstreamError(
      'invalid_response',
      `WeChat ${what} answered errcode ${text(body.errcode)}: ${text(body.errmsg).slice(0, 100)}`,
    );
  }
}

/**
 * WeChat website login (open.weixin.qq.com, "网站应用微信登录"): qrconnect with appid and
 * scope snsapi_login and the mandatory #wechat_redirect fragment; token by GET with appid/secret;
 * errors as HTTP 200 with errcode/errmsg; sns/userinfo for the nickname, avatar and unionid.
 * No PKCE nor nonce in this protocol; `state` is all there is.
 */
export class WechatKind implements KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const url = new URL(provider.settings.authorizationUrl ?? DEFAULTS.authorizationUrl);
    url.searchParams.set('appid', provider.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', provider.settings.scope ?? 'snsapi_login');
    url.searchParams.set('state', params.state);
    url.hash = 'wechat_redirect';
    return Promise.resolve(url.href);
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    _params: StartParams,
  ): Promise<UpstreamProfile> {
    // A person who refuses comes back with state and no code.
    const code = callbackQuery.code;
    if (typeof code !== 'string' || code === '') {
      throw new UpstreamError('denied', 'the sign-in was declined at WeChat');
    }
    const tokenUrl = new URL(provider.settings.tokenUrl ?? DEFAULTS.tokenUrl);
    tokenUrl.searchParams.set('appid', provider.clientId);
    tokenUrl.searchParams.set('secret', provider.clientSecret);
    tokenUrl.searchParams.set('code', code);
    tokenUrl.searchParams.set('grant_type', 'authorization_code');
    const token = await fetchJson(tokenUrl);
    checkErrcode(token.body, 'token');
    const accessToken = stringField(token.body.access_token);
    const openid = stringField(token.body.openid);
    if (!accessToken || !openid) {
      throw new UpstreamError('invalid_response', 'WeChat gave no access_token or openid');
    }
    const infoUrl = new URL(provider.settings.profileUrl ?? DEFAULTS.profileUrl);
    infoUrl.searchParams.set('access_token', accessToken);
    infoUrl.searchParams.set('openid', openid);
    const info = await fetchJson(infoUrl);
    checkErrcode(info.body, 'userinfo');
    const unionid = stringField(info.body.unionid) ?? stringField(token.body.unionid);
    return {
      // openid is per application; unionid (same person across one developer's apps) goes
      // to providerData, where integrations of the original service read it.
      subject: openid,
      username: stringField(info.body.nickname),
      email: null,
      emailVerified: false,
      avatar: stringField(info.body.headimgurl),
      providerData: { openid, unionid },
    };
  }
}
