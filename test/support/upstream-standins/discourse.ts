import { createHmac } from 'node:crypto';
import { redirect, RunningStandIn, startStandIn, StandInRequest } from './server';

export interface DiscourseUser {
  external_id: string;
  username: string;
  email: string;
  name: string;
  avatar_url: string;
  admin: boolean;
  moderator: boolean;
  groups: string;
}

export interface DiscourseStandIn extends RunningStandIn {
  secret: string;
  user: DiscourseUser;
  /** Tamper with the answer to test the client: e.g. replace the nonce. */
  rewrite: ((fields: URLSearchParams) => void) | null;
}

const sign = (payload: string, secret: string) =>
  createHmac('sha256', secret).update(payload).digest('hex');

/**
 * A Discourse forum as DiscourseConnect provider on loopback: GET /session/sso_provider checks
 * sig = hex HMAC-SHA256(sso) with the shared secret, decodes nonce and return_sso_url, and
 * sends the browser back to return_sso_url with a signed sso of the user's fields.
 */
export async function startDiscourseStandIn(): Promise<DiscourseStandIn> {
  const standIn: Omit<DiscourseStandIn, keyof RunningStandIn> = {
    secret: 'discourse-connect-shared-secret-123',
    user: {
      external_id: '17',
      username: 'forumfan',
      email: 'fan@forum.example',
      name: 'Forum Fan',
      avatar_url: 'https://forum.example/avatar/17.png',
      admin: false,
      moderator: true,
      groups: 'trust_level_0,trust_level_1',
    },
    rewrite: null,
  };
  const handle = (req: StandInRequest) => {
    if (req.url.pathname !== '/session/sso_provider') return { status: 404, body: 'not found' };
    const sso = req.url.searchParams.get('sso') ?? '';
    if (sign(sso, standIn.secret) !== req.url.searchParams.get('sig')) {
      return { status: 422, body: 'DiscourseConnect: invalid signature' };
    }
    const request = new URLSearchParams(Buffer.from(sso, 'base64').toString('utf8'));
    const returnUrl = request.get('return_sso_url') ?? '';
    const fields = new URLSearchParams({
      nonce: request.get('nonce') ?? '',
      return_sso_url: returnUrl,
      ...Object.fromEntries(Object.entries(standIn.user).map(([k, v]) => [k, String(v)])),
    });
    standIn.rewrite?.(fields);
    const payload = Buffer.from(fields.toString(), 'utf8').toString('base64');
    const back = new URL(returnUrl);
    back.searchParams.set('sso', payload);
    back.searchParams.set('sig', sign(payload, standIn.secret));
    return redirect(back.href);
  };
  const running = await startStandIn(handle);
  return Object.assign(standIn, running);
}
