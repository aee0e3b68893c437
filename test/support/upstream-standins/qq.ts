import { randomBytes } from 'node:crypto';
import { json, redirect, RunningStandIn, startStandIn, StandInRequest } from './server';

export interface QqUser {
  openid: string;
  unionid: string;
  nickname: string;
  figureurl_qq_2: string;
}

export interface QqStandIn extends RunningStandIn {
  appid: string;
  appkey: string;
  settings: { authorizationUrl: string; tokenUrl: string; openidUrl: string; profileUrl: string };
  user: QqUser;
}

/**
 * QQ Connect on loopback, as documented: /oauth2.0/authorize; /oauth2.0/token by GET (a query
 * string answer, or JSON with fmt=json; errors as {error, error_description}); /oauth2.0/me
 * (JSONP `callback( {...} );` unless fmt=json; unionid only with unionid=1);
 * /user/get_user_info needing oauth_consumer_key and openid (errors as ret/msg).
 */
export async function startQqStandIn(): Promise<QqStandIn> {
  const codes = new Map<string, { user: QqUser; redirectUri: string }>();
  const tokens = new Map<string, QqUser>();
  const standIn = {
    appid: '101234567',
    appkey: 'qq-standin-appkey',
    user: {
      openid: 'QQOPENID0001',
      unionid: 'UID_QQ_0001',
      nickname: '小明',
      figureurl_qq_2: 'https://thirdqq.qlogo.cn/100',
    },
  };
  const handle = (req: StandInRequest) => {
    const q = req.url.searchParams;
    const fmtJson = q.get('fmt') === 'json';
    const answer = (fields: Record<string, unknown>) =>
      fmtJson
        ? json(fields)
        : 'error' in fields || req.url.pathname === '/oauth2.0/me'
          ? {
              headers: { 'content-type': 'text/html' },
              body: `callback( ${JSON.stringify(fields)} );\n`,
            }
          : {
              headers: { 'content-type': 'text/html' },
              body: new URLSearchParams(fields as Record<string, string>).toString(),
            };
    switch (`${req.method} ${req.url.pathname}`) {
      case 'GET /oauth2.0/authorize': {
        if (q.get('client_id') !== standIn.appid || q.get('response_type') !== 'code') {
          return {
            status: 200,
            headers: { 'content-type': 'text/html' },
            body: 'error: 100000 缺少参数response_type或response_type非法',
          };
        }
        const code = randomBytes(16).toString('hex').toUpperCase();
        codes.set(code, { user: standIn.user, redirectUri: q.get('redirect_uri') ?? '' });
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        return redirect(back.href);
      }
      case 'GET /oauth2.0/token': {
        if (q.get('client_id') !== standIn.appid || q.get('client_secret') !== standIn.appkey) {
          return answer({ error: 100016, error_description: 'client_secret is wrong' });
        }
        const grant = codes.get(q.get('code') ?? '');
        codes.delete(q.get('code') ?? '');
        if (!grant)
          return answer({ error: 100019, error_description: 'code to access token error' });
        if (grant.redirectUri !== q.get('redirect_uri'))
          return answer({ error: 100010, error_description: 'redirect uri is illegal' });
        const accessToken = randomBytes(16).toString('hex').toUpperCase();
        tokens.set(accessToken, grant.user);
        return answer({
          access_token: accessToken,
          expires_in: '7776000',
          refresh_token: randomBytes(16).toString('hex'),
        });
      }
      case 'GET /oauth2.0/me': {
        const user = tokens.get(q.get('access_token') ?? '');
        if (!user) return answer({ error: 100016, error_description: 'access token check failed' });
        return answer({
          client_id: standIn.appid,
          openid: user.openid,
          ...(q.get('unionid') === '1' ? { unionid: user.unionid } : {}),
        });
      }
      case 'GET /user/get_user_info': {
        const user = tokens.get(q.get('access_token') ?? '');
        if (!user) return json({ ret: 100016, msg: 'access token check failed' });
        if (q.get('oauth_consumer_key') !== standIn.appid)
          return json({ ret: -22, msg: 'appid is invalid' });
        if (q.get('openid') !== user.openid) return json({ ret: -23, msg: 'openid is invalid' });
        return json({
          ret: 0,
          msg: '',
          is_lost: 0,
          nickname: user.nickname,
          gender: '男',
          figureurl_qq_1: 'https://thirdqq.qlogo.cn/40',
          figureurl_qq_2: user.figureurl_qq_2,
        });
      }
      default:
        return { status: 404, body: 'not found' };
    }
  };
  const running = await startStandIn(handle);
  return Object.assign(standIn, running, {
    settings: {
      authorizationUrl: `${running.origin}/oauth2.0/authorize`,
      tokenUrl: `${running.origin}/oauth2.0/token`,
      openidUrl: `${running.origin}/oauth2.0/me`,
      profileUrl: `${running.origin}/user/get_user_info`,
    },
  });
}
