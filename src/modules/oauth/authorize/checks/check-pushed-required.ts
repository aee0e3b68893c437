import { invalidRequest } from '../../protocol/oauth-error';

/**
 * How the request reached the pipeline: pushed first (RFC 9126; its parameters came from the
 * pushed authorization request endpoint), or straight to /authorize, where a client or a
 * deployment may require pushing.
 */
export type RequestRoute = 'pushed' | { direct: { pushRequired: boolean } };

/**
 * RFC 9126 section 5: a client that must push its requests (its own
 * require_pushed_authorization_requests, or the deployment's) and came to /authorize with the
 * parameters in the URL is refused, on its validated redirect_uri, with invalid_request.
 */
export function checkPushedRequired(route: RequestRoute): void {
  if (route !== 'pushed' && route.direct.pushRequired) {
    throw invalidRequest('Pushed authorization request required');
  }
}
