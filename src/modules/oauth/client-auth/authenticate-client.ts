import type { DataSource } from 'typeorm';
import type { ClientAuthMethod } from '../../applications/application.entity';
import { constantTimeEqual } from '../../../common/crypto/constant-time';
import { sha256Hex } from '../../../common/crypto/hash';
import { preparedQuery } from '../../../common/sql/prepared-query';
import { statement } from '../../../common/sql/statement';
import { OAuthError } from '../protocol/oauth-error';
import { invalidClient, type ClientCredentials } from './client-credentials';

/** The client columns client authentication reads. */
export interface OAuthClient {
  id: number;
  clientId: string;
  clientAuthMethod: ClientAuthMethod;
  clientSecretHash: string | null;
  enabled: boolean;
}

/**
 * Client authentication at the token, revocation and introspection endpoints (docs/contract/oauth.md#clients-and-client-authentication),
 * the second half of one chain whose first half is clientCredentials (client-credentials.ts):
 * `secret` clients by HTTP Basic (client_secret_basic) or form fields (client_secret_post); `none`
 * clients by client_id alone (PKCE is then enforced by the code exchange), never with a secret.
 * Secrets are compared as SHA-256 digests in constant time. The client is read by a named
 * prepared statement (planned once per connection): it runs on every confidential token and
 * revocation request (introspection reads the client in its own batched lookup, then checkClient).
 */
export async function authenticateClient(
  credentials: ClientCredentials,
  dataSource: DataSource,
): Promise<OAuthClient> {
  return checkClient(credentials, await findClient(dataSource, credentials.clientId));
}

/**
 * authenticateClient's rules on the client row `application` (null: no client has that id),
 * read by the caller: an unknown client and a wrong secret fail alike.
 */
export function checkClient<C extends OAuthClient>(
  credentials: ClientCredentials,
  application: C | null,
): C {
  if (!application) throw invalidClient('Client authentication failed');
  const secret = credentials.method === 'none' ? undefined : credentials.clientSecret;
  if (application.clientAuthMethod === 'none') {
    if (secret !== undefined)
      throw invalidClient('This client authenticates with PKCE, not a secret');
  } else if (
    secret === undefined ||
    application.clientSecretHash === null ||
    !constantTimeEqual(sha256Hex(secret), application.clientSecretHash)
  ) {
    throw invalidClient('Client authentication failed');
  }
  if (!application.enabled) {
    throw new OAuthError('unauthorized_client', 'The application is disabled');
  }
  return application;
}

export const FIND_CLIENT = statement(
  `SELECT id, client_id AS "clientId", client_auth_method AS "clientAuthMethod",
    client_secret_hash AS "clientSecretHash", enabled
  FROM applications WHERE client_id = :clientId`,
  ['clientId'],
);

async function findClient(dataSource: DataSource, clientId: string): Promise<OAuthClient | null> {
  const rows = await preparedQuery<OAuthClient>(
    dataSource,
    'oauth_find_client',
    FIND_CLIENT.text,
    FIND_CLIENT.values({ clientId }),
  );
  return rows[0] ?? null;
}
