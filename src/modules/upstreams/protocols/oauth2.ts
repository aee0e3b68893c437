import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { s256 } from '../../../common/crypto/opaque-token';
import { UpstreamError } from '../providers/upstream-provider';
import { checkCallbackError, exchangeCode, requireCode } from './authorization-code';
import { fetchJson, stringField } from './http';
import type { KindClient } from './kind-client';

/** The value at a dotted path ("data.user.id"); arrays by index ("emails.0.address"). */
export function valueAt(source: unknown, path: string | undefined): unknown {
  if (!path) return undefined;
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A generic OAuth 2.0 provider (RFC 6749 authorization code with RFC 7636 PKCE S256): the
 * operator gives the authorize, token and profile URLs and where the profile's fields are.
 * The client authenticates with client_secret_post, which most providers accept.
 */
export class OAuth2Kind implements KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const url = new URL(provider.settings.authorizationUrl ?? '');
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', provider.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('state', params.state);
    url.searchParams.set('code_challenge', s256(params.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    if (provider.settings.scope) url.searchParams.set('scope', provider.settings.scope);
    return Promise.resolve(url.href);
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    checkCallbackError(callbackQuery);
    const code = requireCode(callbackQuery);
    const { accessToken } = await exchangeCode({
      provider: 'the token endpoint',
      tokenUrl: provider.settings.tokenUrl ?? '',
      send: 'form',
      params: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: params.redirectUri,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code_verifier: params.codeVerifier,
      },
    });
    const profile = await fetchJson(provider.settings.profileUrl ?? '', {
      headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
    });
    if (profile.status !== 200) {
      throw new UpstreamError(
        'invalid_response',
        `the profile endpoint answered ${profile.status}`,
      );
    }
    const paths = provider.settings.profileFields ?? { subject: 'sub' };
    const subject = stringField(valueAt(profile.body, paths.subject));
    if (!subject) {
      throw new UpstreamError('invalid_response', `the profile has no ${paths.subject}`);
    }
    const email = stringField(valueAt(profile.body, paths.email));
    const verified = valueAt(profile.body, paths.emailVerified);
    return {
      subject,
      username: stringField(valueAt(profile.body, paths.username)),
      email,
      // Without a configured verified field the email is not taken as verified.
      emailVerified: email !== null && (verified === true || verified === 'true'),
      avatar: stringField(valueAt(profile.body, paths.avatar)),
      providerData: {},
    };
  }
}
