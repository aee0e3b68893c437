import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { UpstreamError } from '../providers/upstream-provider';
import { checkCallbackError, exchangeCode, requireCode } from './authorization-code';
import { fetchJson, stringField, text } from './http';
import type { KindClient } from './kind-client';

const DEFAULTS = {
  authorizationUrl: 'https://graph.qq.com/oauth2.0/authorize',
  tokenUrl: 'https://graph.qq.com/oauth2.0/token',
  openidUrl: 'https://graph.qq.com/oauth2.0/me',
  profileUrl: 'https://graph.qq.com/user/get_user_info',
};

/**
 * QQ's OAuth answers (with fmt=json) carry `error`/`error_description` (numeric codes, in HTTP
 * 200 answers too); get_user_info answers `ret`/`msg`. Null when neither says anything went wrong.
 */
function qqError(body: Record<string, unknown>): string | null {
  if (body.error !== undefined && body.error !== 0) {
    return `error ${text(body.error)}: ${text(body.error_description).slice(0, 100)}`;
  }
  if (body.ret !== undefined && body.ret !== 0) {
    return `ret ${text(body.ret)}: ${text(body.msg).slice(0, 100)}`;
  }
  return null;
}

function checkQqError(body: Record<string, unknown>, what: string): void {
  const error = qqError(body);
  if (error !== null) throw new UpstreamError('invalid_response', `QQ ${what} answered ${error}`);
}

/**
 * QQ Connect (connect.qq.com): authorize, token by GET with fmt=json, /oauth2.0/me (with
 * unionid=1) for the openid and unionid, then get_user_info with oauth_consumer_key = appid.
 */
export class QqKind implements KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const url = new URL(provider.settings.authorizationUrl ?? DEFAULTS.authorizationUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', provider.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('state', params.state);
    url.searchParams.set('scope', provider.settings.scope ?? 'get_user_info');
    return Promise.resolve(url.href);
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    checkCallbackError(callbackQuery);
    const code = requireCode(callbackQuery);
    // By GET; without fmt=json QQ answers a query string (the token) or JSONP (/me).
    const { accessToken } = await exchangeCode({
      provider: 'QQ',
      tokenUrl: provider.settings.tokenUrl ?? DEFAULTS.tokenUrl,
      send: 'query',
      params: {
        grant_type: 'authorization_code',
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code,
        redirect_uri: params.redirectUri,
        fmt: 'json',
      },
      errorOf: qqError,
      requireOk: false,
    });

    const meUrl = new URL(provider.settings.openidUrl ?? DEFAULTS.openidUrl);
    meUrl.search = new URLSearchParams({
      access_token: accessToken,
      unionid: '1',
      fmt: 'json',
    }).toString();
    const me = await fetchJson(meUrl);
    checkQqError(me.body, 'me');
    const openid = stringField(me.body.openid);
    if (!openid) throw new UpstreamError('invalid_response', 'QQ gave no openid');
    if (me.body.client_id !== undefined && me.body.client_id !== provider.clientId) {
      // A token issued to another application must not sign anyone in here.
      throw new UpstreamError('invalid_response', 'QQ token belongs to another application');
    }

    const infoUrl = new URL(provider.settings.profileUrl ?? DEFAULTS.profileUrl);
    infoUrl.search = new URLSearchParams({
      access_token: accessToken,
      oauth_consumer_key: provider.clientId,
      openid,
    }).toString();
    const info = await fetchJson(infoUrl);
    checkQqError(info.body, 'get_user_info');
    const unionid = stringField(me.body.unionid);
    return {
      subject: openid,
      username: stringField(info.body.nickname),
      email: null,
      emailVerified: false,
      avatar: stringField(info.body.figureurl_qq_2) ?? stringField(info.body.figureurl_qq_1),
      providerData: { openid, unionid },
    };
  }
}
