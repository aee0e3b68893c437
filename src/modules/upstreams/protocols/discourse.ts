import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { UpstreamError } from '../providers/upstream-provider';
import { stringField } from './http';
import type { KindClient } from './kind-client';

export function discourseSignature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * DiscourseConnect with the forum as identity provider (meta.discourse.org "Use Discourse as an
 * identity provider"): the browser goes to /session/sso_provider with sso = base64(nonce=...&
 * return_sso_url=...) and sig = hex HMAC-SHA256(sso, shared secret); the forum comes back with
 * a signed sso of the user's fields. No token exchange: the signature is the proof, checked in
 * constant time, and the nonce must be the one sent.
 */
export class DiscourseKind implements KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const payload = new URLSearchParams({
      nonce: params.nonce,
      return_sso_url: params.redirectUri,
    }).toString();
    const sso = Buffer.from(payload, 'utf8').toString('base64');
    const url = new URL('session/sso_provider', withSlash(provider.settings.baseUrl ?? ''));
    url.searchParams.set('sso', sso);
    url.searchParams.set('sig', discourseSignature(sso, provider.clientSecret));
    return Promise.resolve(url.href);
  }

  complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    const { sso, sig } = callbackQuery;
    if (typeof sso !== 'string' || typeof sig !== 'string' || sso === '' || sig === '') {
      return Promise.reject(new UpstreamError('invalid_response', 'no signed sso payload'));
    }
    const expected = Buffer.from(discourseSignature(sso, provider.clientSecret), 'utf8');
    const given = Buffer.from(sig.toLowerCase(), 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return Promise.reject(new UpstreamError('invalid_response', 'the sso signature is wrong'));
    }
    const fields = new URLSearchParams(Buffer.from(sso, 'base64').toString('utf8'));
    if (fields.get('nonce') !== params.nonce) {
      return Promise.reject(new UpstreamError('invalid_state', 'the sso nonce is not ours'));
    }
    const subject = stringField(fields.get('external_id'));
    if (!subject) {
      return Promise.reject(new UpstreamError('invalid_response', 'the sso has no external_id'));
    }
    const email = stringField(fields.get('email'));
    return Promise.resolve({
      subject,
      username: stringField(fields.get('username')),
      email,
      // Discourse signs in only activated accounts, whose email it has confirmed; it says
      // otherwise with require_activation=true.
      emailVerified: email !== null && fields.get('require_activation') !== 'true',
      avatar: stringField(fields.get('avatar_url')),
      providerData: {
        name: stringField(fields.get('name')),
        groups: stringField(fields.get('groups')),
        admin: fields.get('admin') === 'true',
        moderator: fields.get('moderator') === 'true',
      },
    });
  }
}

function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}
