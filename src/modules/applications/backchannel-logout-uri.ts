import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { checkWebhookUrl } from '../../common/http/webhook-url';

/**
 * A client's `backchannel_logout_uri` (OpenID Connect Back-Channel Logout 1.0 section 2.2): its
 * logout tokens carry user ids and go out from the provider's network, so the URI obeys the
 * webhook endpoints' rules (common/http/webhook-url.ts): https, no credentials, no fragment, plain http
 * only on a loopback host with WEBHOOKS_ALLOW_INSECURE. Answers the URI as stored (normalised);
 * refuses with the webhook rule's code, naming the setting.
 */
export function checkBackchannelLogoutUri(value: unknown, allowInsecure: boolean): string {
  if (typeof value !== 'string') {
    throw checkFailure(new AppError(ErrorCode.InvalidRequest, 'url must be an absolute URL'));
  }
  try {
    return checkWebhookUrl(value, allowInsecure);
  } catch (error) {
    throw checkFailure(error);
  }
}

function checkFailure(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  return new AppError(error.code, error.message.replace(/^url\b/, 'backchannelLogoutUri'));
}
