import { OAuthError } from '../../protocol/oauth-error';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/**
 * The longest `state` accepted. RFC 6749 section 4.1.1 sets no limit, but the pending request
 * (state included) travels sealed in the login URL, so it must stay well within URL limits
 * (docs/oauth.md, "Pending requests"); 1024 characters leave room for any random or signed value.
 */
export const MAX_STATE_LENGTH = 1024;

/** `state` is optional and returned unchanged; only its length is checked. */
export function checkState(params: Params): string | null {
  const state = param(params, 'state') ?? null;
  if (state !== null && state.length > MAX_STATE_LENGTH) {
    throw new OAuthError(
      'invalid_request',
      `The state parameter must be at most ${MAX_STATE_LENGTH} characters`,
    );
  }
  return state;
}
