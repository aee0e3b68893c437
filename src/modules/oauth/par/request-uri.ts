import { randomBytes } from 'node:crypto';

/** RFC 9126 section 2.2: the URN namespace of the request_uri values this service issues. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/**
 * A new request_uri: 256 random bits, base64url (RFC 9126 section 2.2 asks for a value that
 * cannot be guessed; section 7.1 for at least 128 bits). Only its SHA-256 is stored.
 */
export function newRequestUri(): string {
  return REQUEST_URI_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Whether /authorize is handed a pushed request: a request_uri in this service's URN namespace.
 * Any other request_uri is a request object by reference (OIDC Core 6.2), which stays
 * unsupported as before (checks/check-request-object.ts).
 */
export function isPushedRequestUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(REQUEST_URI_PREFIX);
}
