import { invalidRequest } from '../protocol/oauth-error';
import { assertionFailed } from './assertion-failure';

/** The credentials of a client assertion: the client it names, and the assertion to verify. */
export interface JwtCredentials {
  method: 'jwt';
  clientId: string;
  assertion: string;
}

type Form = Readonly<
  Partial<
    Record<'client_id' | 'client_secret' | 'client_assertion' | 'client_assertion_type', string>
  >
>;

/** RFC 7523 section 2.2: the client_assertion_type of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** An assertion longer than this is refused unread (a few keys' worth of JWS is far less). */
export const MAX_ASSERTION_LENGTH = 8192;

/**
 * A client assertion presented in the form (RFC 7521 section 4.2), before anything is verified:
 * - with HTTP Basic or a client_secret field it is `invalid_request`: a request uses one
 *   authentication method (RFC 6749 section 2.3);
 * - client_assertion and client_assertion_type go together, and the type is the JWT one
 *   (`invalid_request`);
 * - the client is the assertion's `sub` (RFC 7523 section 3, item 2); a client_id field may name
 *   it too and must then be the same (RFC 7521 section 4.2). An assertion that cannot be read,
 *   is too long, or names another client than client_id is `invalid_client`, worded like every
 *   other assertion failure (assertion-failure.ts).
 */
export function assertionCredentials(
  form: Form,
  authorization: string | undefined,
): JwtCredentials {
  const {
    client_id: formId,
    client_secret: secret,
    client_assertion: assertion,
    client_assertion_type: type,
  } = form;
  if ((authorization !== undefined && authorization.trim() !== '') || secret !== undefined) {
    throw invalidRequest(
      'Use one client authentication method: a client assertion, or HTTP Basic or client_secret',
    );
  }
  if (assertion === undefined || type === undefined) {
    throw invalidRequest('client_assertion and client_assertion_type must be sent together');
  }
  if (type !== JWT_BEARER_ASSERTION_TYPE) {
    throw invalidRequest(`client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}`);
  }
  if (assertion.length > MAX_ASSERTION_LENGTH) throw assertionFailed('the assertion is too long');
  const subject = unverifiedSubject(assertion);
  if (subject === undefined) throw assertionFailed('the assertion is not a readable JWT');
  if (formId !== undefined && formId !== subject) {
    throw assertionFailed('client_id does not match the assertion sub');
  }
  return { method: 'jwt', clientId: subject, assertion };
}

/** The `sub` of a compact JWS's payload, read without verifying anything (only to find the client). */
function unverifiedSubject(assertion: string): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const sub = (payload as { sub?: unknown } | null)?.sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}
