import { OAuthError } from '../../protocol/oauth-error';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/** Only the authorization code flow exists here (docs/contract/oauth.md#authorization-request: response_type is fixed `code`). */
export function checkResponseType(params: Params): void {
  const responseType = param(params, 'response_type');
  if (responseType === undefined || responseType === '') {
    throw new OAuthError('invalid_request', 'The response_type parameter is required');
  }
  if (responseType !== 'code') {
    throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported');
  }
}
