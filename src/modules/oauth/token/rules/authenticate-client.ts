import type { DataSource } from 'typeorm';
import type { ClientAuthMethod } from '../../../applications/application.entity';
import { constantTimeEqual } from '../../../../common/crypto/constant-time';
import { sha256Hex } from '../../../../common/crypto/hash';
import { preparedQuery } from '../../../../database/prepared-query';
import { OAuthError, invalidRequest } from '../../protocol/oauth-error';
import { nonEmptyParam, type Params } from '../../protocol/params';

/** RFC 6749 section 5.2: invalid_client is 401 with a challenge for the scheme the client may use. */
export const invalidClient = (description: string): OAuthError =>
  new OAuthError('invalid_client', description, 'Basic realm="oauth2", charset="UTF-8"');

/** The client columns the token endpoint needs. */
export interface OAuthClient {
  id: number;
  clientId: string;
  clientAuthMethod: ClientAuthMethod;
  clientSecretHash: string | null;
  enabled: boolean;
}

interface Credentials {
  clientId: string;
  clientSecret: string | undefined;
}

/**
 * Client authentication at the token endpoint (spec section 5): `secret` clients by HTTP Basic
 * (client_secret_basic) or form fields (client_secret_post), never both; `none` clients by
 * client_id alone (PKCE is then enforced by the code exchange). Secrets are compared as SHA-256
 * digests in constant time. The client is read by a named prepared statement (planned once per
 * connection): it runs on every confidential token, revocation and introspection request.
 */
export async function authenticateClient(
  authorization: string | undefined,
  body: Params,
  dataSource: DataSource,
): Promise<OAuthClient> {
  const { clientId, clientSecret } = readCredentials(authorization, body);
  const application = clientId.length <= 64 ? await findClient(dataSource, clientId) : null;
  if (!application) throw invalidClient('Client authentication failed');
  if (application.clientAuthMethod === 'none') {
    if (clientSecret !== undefined)
      throw invalidClient('This client authenticates with PKCE, not a secret');
  } else if (
    clientSecret === undefined ||
    application.clientSecretHash === null ||
    !constantTimeEqual(sha256Hex(clientSecret), application.clientSecretHash)
  ) {
    throw invalidClient('Client authentication failed');
  }
  if (!application.enabled) {
    throw new OAuthError('unauthorized_client', 'The application is disabled');
  }
  return application;
}

export const FIND_CLIENT = `SELECT id, client_id AS "clientId", client_auth_method AS "clientAuthMethod",
    client_secret_hash AS "clientSecretHash", enabled
  FROM applications WHERE client_id = $1`;

async function findClient(dataSource: DataSource, clientId: string): Promise<OAuthClient | null> {
  const rows = await preparedQuery<OAuthClient>(dataSource, 'oauth_find_client', FIND_CLIENT, [
    clientId,
  ]);
  return rows[0] ?? null;
}

function readCredentials(authorization: string | undefined, body: Params): Credentials {
  const formId = nonEmptyParam(body, 'client_id');
  const formSecret = nonEmptyParam(body, 'client_secret');
  if (authorization === undefined || authorization.trim() === '') {
    if (formId === undefined) throw invalidClient('Client authentication is required');
    return { clientId: formId, clientSecret: formSecret };
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
function parseBasic(header: string): Credentials {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw invalidClient('Malformed HTTP Basic client credentials');
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    return { clientId, clientSecret: clientSecret === '' ? undefined : clientSecret };
  } catch {
    throw invalidClient('Malformed HTTP Basic client credentials');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
