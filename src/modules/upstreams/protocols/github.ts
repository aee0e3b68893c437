import type {
  StartParams,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { s256 } from '../../../common/crypto/opaque-token';
import { UpstreamError } from '../providers/upstream-provider';
import { checkCallbackError, exchangeCode, requireCode } from './authorization-code';
import { fetchJson, fetchJsonArray, stringField } from './http';
import type { KindClient } from './kind-client';

const DEFAULTS = {
  authorizationUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  profileUrl: 'https://api.github.com/user',
  emailsUrl: 'https://api.github.com/user/emails',
};

// GitHub's REST API refuses requests without a User-Agent.
const API_HEADERS = {
  accept: 'application/vnd.github+json',
  'user-agent': 'idsvc-upstream-login',
  'x-github-api-version': '2022-11-28',
};

/**
 * GitHub's OAuth app flow (docs.github.com "Authorizing OAuth apps"): authorize with state and
 * PKCE S256, token by POST with Accept: application/json (errors come as HTTP 200 with an
 * `error` field), then GET /user and GET /user/emails for the verified primary address.
 */
export class GithubKind implements KindClient {
  authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const url = new URL(provider.settings.authorizationUrl ?? DEFAULTS.authorizationUrl);
    url.searchParams.set('client_id', provider.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', provider.settings.scope ?? 'read:user user:email');
    url.searchParams.set('state', params.state);
    url.searchParams.set('code_challenge', s256(params.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('allow_signup', 'true');
    return Promise.resolve(url.href);
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    checkCallbackError(callbackQuery);
    const code = requireCode(callbackQuery);
    // GitHub answers its token errors (bad_verification_code, …) as HTTP 200 with `error`.
    const { accessToken } = await exchangeCode({
      provider: 'GitHub',
      tokenUrl: provider.settings.tokenUrl ?? DEFAULTS.tokenUrl,
      send: 'form',
      params: {
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code,
        redirect_uri: params.redirectUri,
        code_verifier: params.codeVerifier,
      },
    });
    const auth = { ...API_HEADERS, authorization: `Bearer ${accessToken}` };
    const user = await fetchJson(provider.settings.profileUrl ?? DEFAULTS.profileUrl, {
      headers: auth,
    });
    const id = user.status === 200 ? stringField(user.body.id) : null;
    if (!id) throw new UpstreamError('invalid_response', `GitHub /user answered ${user.status}`);
    const emails = await fetchJsonArray(provider.settings.emailsUrl ?? DEFAULTS.emailsUrl, {
      headers: auth,
    });
    const primary = emails.find(
      (entry): entry is { email: string; verified: boolean } =>
        typeof entry === 'object' &&
        entry !== null &&
        (entry as { primary?: unknown }).primary === true &&
        typeof (entry as { email?: unknown }).email === 'string',
    );
    const login = stringField(user.body.login);
    return {
      // GitHub's numeric id: logins can be renamed and reused, ids cannot.
      subject: id,
      username: login,
      email: primary?.email ?? null,
      emailVerified: primary?.verified === true,
      avatar: stringField(user.body.avatar_url),
      providerData: { login, name: stringField(user.body.name) },
    };
  }
}
