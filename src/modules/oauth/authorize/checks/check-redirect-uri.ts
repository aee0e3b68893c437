import type { Application } from '../../../applications/application.entity';
import { redirectUriMatches } from '../../../applications/redirect-uri';
import { PageError } from '../../../pages/page-error';
import { type Params } from '../../../../common/http/params';
import { msg } from '../../../../common/i18n/i18n';

/** Why a redirect_uri cannot be used: not sent, or not one of the client's. */
export type RedirectUriProblem = 'missing' | 'unregistered';

/**
 * The redirect_uri must equal one registered URI character for character (RFC 9700 section
 * 4.1.3), but for the port of a public client's loopback IP redirect (RFC 8252 section 7.3;
 * applications/redirect-uri.ts). It is required even with one registered URI, and the value sent
 * is returned, so the code is bound to it and the token request must repeat it exactly. The one
 * rule of /authorize (checkRedirectUri) and of the pushed authorization request endpoint, which
 * answers its problem as JSON (par/).
 */
export function redirectUriOf(
  params: Params,
  application: Application,
): { redirectUri: string } | { problem: RedirectUriProblem } {
  const redirectUri = params.redirect_uri;
  if (typeof redirectUri !== 'string' || redirectUri === '') return { problem: 'missing' };
  const { redirectUris, clientAuthMethod } = application;
  if (!redirectUris.some((uri) => redirectUriMatches(uri, redirectUri, clientAuthMethod))) {
    return { problem: 'unregistered' };
  }
  return { redirectUri };
}

/**
 * redirectUriOf at /authorize: until this passes, errors are shown, never redirected
 * (open-redirect protection).
 */
export function checkRedirectUri(params: Params, application: Application): string {
  const checked = redirectUriOf(params, application);
  if ('redirectUri' in checked) return checked.redirectUri;
  if (checked.problem === 'missing') {
    throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.redirectUriMissing'));
  }
  throw new PageError(400, msg('errors.invalidRedirectUriTitle'), msg('errors.invalidRedirectUri'));
}
