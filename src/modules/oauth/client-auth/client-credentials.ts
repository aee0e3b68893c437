import { hasControlCharacter } from '../../../common/validation/control-characters';
import { invalidRequest } from '../protocol/oauth-error';
import { take, type FormParams } from '../protocol/params';
import { assertionCredentials, type JwtCredentials } from './assertion-credentials';
import { invalidClient } from './invalid-client';

/**
 * The form parameters of client authentication: RFC 6749 section 2.3.1, and the client
 * assertion of RFC 7521 section 4.2 (private_key_jwt). An endpoint that reads these gets every
 * method.
 */
export const CLIENT_AUTH_PARAMETERS = [
  'client_id',
  'client_secret',
  'client_assertion_type',
  'client_assertion',
] as const;
export type ClientAuthParameter = (typeof CLIENT_AUTH_PARAMETERS)[number];

/** `applications.client_id` is varchar(64): a longer client_id names no client. */
export const CLIENT_ID_MAX_LENGTH = 64;

/**
 * How a request presents its client, read once from the form and the Authorization header
 * (oidc-provider's lib/shared/client_auth.js): `basic` (client_secret_basic; the secret may be
 * empty, for a `none` client), `post` (client_id and client_secret fields), `none` (client_id
 * alone: a public client, RFC 6749 section 2.1) or `jwt` (a client assertion, private_key_jwt:
 * RFC 7523 section 2.2; the client is the assertion's `sub`, not yet verified).
 */
export type ClientCredentials =
  | { method: 'basic'; clientId: string; clientSecret: string | undefined }
  | { method: 'post'; clientId: string; clientSecret: string }
  | { method: 'none'; clientId: string }
  | JwtCredentials;

export { invalidClient } from './invalid-client';

/**
 * The client credentials of a token, revocation or introspection request (docs/contract/oauth.md#clients-and-client-authentication),
 * checked in this order: a parameter of client authentication repeated (`invalid_request`); a
 * client assertion (assertion-credentials.ts: with Basic or client_secret, or half of it,
 * `invalid_request`); no credentials (`invalid_client`); a malformed Basic header
 * (`invalid_client`); Basic together with a client_secret field, or a client_id field other than
 * the Basic one (`invalid_request`); a client_id longer than any registered one, or holding a
 * control character (from a Basic header or an assertion's `sub`; the form's own fields are
 * refused as malformed before), `invalid_client` without a lookup. Whether the client exists and the secret or the
 * assertion is right is authenticateClient's (authenticate-client.ts).
 */
export function clientCredentials(
  params: FormParams<ClientAuthParameter>,
  authorization: string | undefined,
): ClientCredentials {
  const form = take(params, CLIENT_AUTH_PARAMETERS);
  const credentials = fromRequest(form, authorization);
  const { clientId } = credentials;
  if (clientId.length > CLIENT_ID_MAX_LENGTH || hasControlCharacter(clientId)) {
    throw invalidClient('Client authentication failed');
  }
  return credentials;
}

function fromRequest(
  form: Readonly<Partial<Record<ClientAuthParameter, string>>>,
  authorization: string | undefined,
): ClientCredentials {
  const { client_id: formId, client_secret: formSecret } = form;
  if (form.client_assertion !== undefined || form.client_assertion_type !== undefined) {
    return assertionCredentials(form, authorization);
  }
  if (authorization === undefined || authorization.trim() === '') {
    if (formId === undefined) throw invalidClient('Client authentication is required');
    if (formSecret === undefined) return { method: 'none', clientId: formId };
    return { method: 'post', clientId: formId, clientSecret: formSecret };
  }
  const basic = parseBasic(authorization);
  if (formSecret !== undefined) {
    throw invalidRequest('Use either HTTP Basic or client_secret in the body, not both');
  }
  if (formId !== undefined && formId !== basic.clientId) {
    throw invalidRequest('client_id in the body does not match the Authorization header');
  }
  return basic;
}

/** RFC 6749 section 2.3.1: both parts are form-urlencoded before Base64. */
function parseBasic(header: string): ClientCredentials & { method: 'basic' } {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw invalidClient('Malformed HTTP Basic client credentials');
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    if (hasControlCharacter(secret)) throw new Error('A control character in the secret');
    return { method: 'basic', clientId, clientSecret: secret === '' ? undefined : secret };
  } catch {
    throw invalidClient('Malformed HTTP Basic client credentials');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
