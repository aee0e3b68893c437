import { Logger } from '@nestjs/common';
import type { OAuthError } from '../protocol/oauth-error';
import { invalidClient } from './invalid-client';

/** The one description of every refused client assertion: it does not say which check failed. */
export const ASSERTION_FAILED = 'Client authentication failed';

const logger = new Logger('ClientAssertion');

/**
 * A refused client assertion: `invalid_client` (401, RFC 7521 section 4.2.1) with the same
 * description whatever failed, so that a prober learns nothing from it (whether the client
 * exists, has keys, which claim was wrong). The reason is logged at debug level, never the
 * assertion, the keys or a claim's value.
 */
export function assertionFailed(reason: string, clientId?: string): OAuthError {
  logger.debug(`client assertion refused${clientId ? ` for client ${clientId}` : ''}: ${reason}`);
  return invalidClient(ASSERTION_FAILED);
}
