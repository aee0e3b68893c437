import { OAuthError } from '../../protocol/oauth-error';
import { isOpenId } from '../../protocol/oidc-claims';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/**
 * OIDC Core 6.1 / 6.2: request objects are not supported (discovery says so), and a request
 * that carries one is refused rather than served without it, which would lose the state and
 * nonce inside. Read only for OpenID Connect requests; the error redirect returns the outer state.
 */
export function checkRequestObject(params: Params, scope: string): void {
  if (!isOpenId(scope)) return;
  const request = param(params, 'request');
  const requestUri = param(params, 'request_uri');
  if (request !== undefined) {
    throw new OAuthError('request_not_supported', 'Request objects are not supported');
  }
  if (requestUri !== undefined) {
    throw new OAuthError('request_uri_not_supported', 'request_uri is not supported');
  }
}
