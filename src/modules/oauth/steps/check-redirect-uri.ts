import type { Application } from '../../applications/application.entity';
import { PageError } from '../oauth-error';
import type { Params } from './params';

/**
 * The redirect_uri must equal one registered URI character for character (RFC 9700 section
 * 4.1.3). It is required even with one registered URI, so the token request can be bound to it.
 * Until this passes, errors are shown, never redirected (open-redirect protection).
 */
export function checkRedirectUri(params: Params, application: Application): string {
  const redirectUri = params.redirect_uri;
  if (typeof redirectUri !== 'string' || redirectUri === '') {
    throw new PageError(
      400,
      'Invalid request',
      'The redirect_uri parameter is missing or repeated.',
    );
  }
  if (!application.redirectUris.includes(redirectUri)) {
    throw new PageError(
      400,
      'Invalid redirect URI',
      'The redirect_uri is not registered for this application.',
    );
  }
  return redirectUri;
}
