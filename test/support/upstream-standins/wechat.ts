import { randomBytes } from 'node:crypto';
import { json, redirect, RunningStandIn, startStandIn, StandInRequest } from './server';

export interface WechatUser {
  openid: string;
  unionid: string;
  nickname: string;
  headimgurl: string;
}

export interface WechatStandIn extends RunningStandIn {
  appid: string;
  secret: string;
  settings: { authorizationUrl: string; tokenUrl: string; profileUrl: string };
  /** Who scans the QR code and confirms next; null = the person refuses. */
  user: WechatUser | null;
}

/**
 * WeChat website login on loopback, as documented: /connect/qrconnect (appid, response_type=code,
 * scope=snsapi_login, state; a refusal returns with state and no code), token by GET at
 * /sns/oauth2/access_token (appid, secret, code, grant_type), /sns/userinfo; every error is
 * HTTP 200 with errcode/errmsg; codes are single-use.
 */
export async function startWechatStandIn(): Promise<WechatStandIn> {
  const codes = new Map<string, WechatUser>();
  const tokens = new Map<string, WechatUser>();
  const standIn = {
    appid: 'wx0123456789abcdef',
    secret: 'wechat-standin-secret',
    user: null as WechatUser | null,
  };
  const handle = (req: StandInRequest) => {
    const q = req.url.searchParams;
    switch (`${req.method} ${req.url.pathname}`) {
      case 'GET /connect/qrconnect': {
        if (q.get('appid') !== standIn.appid || q.get('scope') !== 'snsapi_login') {
          return { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>参数错误</p>' };
        }
        const back = new URL(q.get('redirect_uri') ?? '');
        if (standIn.user) {
          const code = randomBytes(16).toString('hex');
          codes.set(code, standIn.user);
          back.searchParams.set('code', code);
        }
        back.searchParams.set('state', q.get('state') ?? '');
        return redirect(back.href);
      }
      case 'GET /sns/oauth2/access_token': {
        if (q.get('appid') !== standIn.appid)
          return json({ errcode: 40013, errmsg: 'invalid appid' });
        if (q.get('secret') !== standIn.secret)
          return json({ errcode: 40125, errmsg: 'invalid appsecret' });
        if (q.get('grant_type') !== 'authorization_code')
          return json({ errcode: 40002, errmsg: 'invalid grant_type' });
        const user = codes.get(q.get('code') ?? '');
        codes.delete(q.get('code') ?? '');
        if (!user) return json({ errcode: 40029, errmsg: 'invalid code' });
        const accessToken = randomBytes(24).toString('hex');
        tokens.set(accessToken, user);
        return json({
          access_token: accessToken,
          expires_in: 7200,
          refresh_token: randomBytes(24).toString('hex'),
          openid: user.openid,
          scope: 'snsapi_login',
          unionid: user.unionid,
        });
      }
      case 'GET /sns/userinfo': {
        const user = tokens.get(q.get('access_token') ?? '');
        if (!user || user.openid !== q.get('openid'))
          return json({
            errcode: 40001,
            errmsg: 'invalid credential, access_token is invalid or not latest',
          });
        return json({
          openid: user.openid,
          nickname: user.nickname,
          sex: 0,
          province: '',
          city: '',
          country: '',
          headimgurl: user.headimgurl,
          privilege: [],
          unionid: user.unionid,
        });
      }
      default:
        return json({ errcode: 40066, errmsg: 'invalid url' });
    }
  };
  const running = await startStandIn(handle);
  return Object.assign(standIn, running, {
    settings: {
      authorizationUrl: `${running.origin}/connect/qrconnect`,
      tokenUrl: `${running.origin}/sns/oauth2/access_token`,
      profileUrl: `${running.origin}/sns/userinfo`,
    },
  });
}
