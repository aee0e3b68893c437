import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { isLoopbackHost } from './loopback';

/** Longest URL accepted (the column's length). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * The URL rule of webhook endpoints (docs/webhooks.md, docs/security.md): events carry user ids
 * and are signed, so they go over https only. Plain http is accepted only on a loopback host
 * and only when the deployment allows it (WEBHOOKS_ALLOW_INSECURE, local development). URLs
 * with credentials or a fragment are refused: neither belongs in a delivery target.
 */
export function checkWebhookUrl(value: string, allowInsecure: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('url must be an absolute URL');
  }
  if (value.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalid(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  if (url.username !== '' || url.password !== '') throw invalid('url must not contain credentials');
  if (url.hash !== '') throw invalid('url must not contain a fragment');
  if (url.protocol === 'https:') return url.href;
  if (url.protocol !== 'http:') throw invalid('url must be an https URL');
  if (!isLoopbackHost(url.hostname)) {
    throw new AppError(
      ErrorCode.InsecureEndpoint,
      'url must be an https URL: http:// is accepted only for loopback hosts (127.0.0.0/8, [::1], localhost) with WEBHOOKS_ALLOW_INSECURE=true',
    );
  }
  if (!allowInsecure) {
    throw new AppError(
      ErrorCode.InsecureEndpoint,
      'url must be an https URL: http:// on a loopback host needs WEBHOOKS_ALLOW_INSECURE=true',
    );
  }
  return url.href;
}

function invalid(message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message);
}
