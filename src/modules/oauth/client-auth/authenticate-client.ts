import type { DataSource } from 'typeorm';
import type { ClientAuthMethod } from '../../applications/application.entity';
import type { SecurityProfile } from '../../applications/security-profile';
import type { ClientJwks } from '../../applications/client-jwks';
import { constantTimeEqual } from '../../../common/crypto/constant-time';
import { sha256Hex } from '../../../common/crypto/hash';
import { preparedQuery } from '../../../common/sql/prepared-query';
import { statement } from '../../../common/sql/statement';
import { OAuthError } from '../protocol/oauth-error';
import { assertionFailed } from './assertion-failure';
import type { AuthenticatingEndpoint } from './assertion-audiences';
import { clientAssertionsOf } from './client-assertions';
import { invalidClient, type ClientCredentials } from './client-credentials';

/** The client columns client authentication reads. */
export interface OAuthClient {
  id: number;
  clientId: string;
  clientAuthMethod: ClientAuthMethod;
  clientSecretHash: string | null;
  /** A `private_key_jwt` client's keys: inline, or where to fetch them. */
  jwks: ClientJwks | null;
  jwksUri: string | null;
  enabled: boolean;
  /**
   * RFC 9449 section 5.2: every token request of this client must carry a DPoP proof (its own
   * `dpop_bound_access_tokens`, or its security profile's: docs/oidc.md).
   */
  dpopBoundAccessTokens: boolean;
  /** The client's security profile (applications/security-profile.ts), or null. */
  securityProfile: SecurityProfile | null;
  /**
   * RFC 8628: the client may use the device authorization grant (its `device_code_grant`; never
   * under a security profile, which allows the code flow only).
   */
  deviceCodeGrant: boolean;
}

/**
 * Client authentication at the token, revocation and introspection endpoints (docs/contract/oauth.md#clients-and-client-authentication),
 * the second half of one chain whose first half is clientCredentials (client-credentials.ts):
 * `secret` clients by HTTP Basic (client_secret_basic) or form fields (client_secret_post); `none`
 * clients by client_id alone (PKCE is then enforced by the code exchange), never with a secret;
 * `private_key_jwt` clients by a client assertion only (verifyClient).
 * Secrets are compared as SHA-256 digests in constant time. The client is read by a named
 * prepared statement (planned once per connection): it runs on every confidential token and
 * revocation request (introspection reads the client in its own batched lookup, then verifyClient).
 * `endpoint` names the endpoint the request was sent to, whose URL an assertion may then have as
 * its `aud` (assertion-audiences.ts); without it, the issuers and token endpoints only.
 */
export async function authenticateClient(
  credentials: ClientCredentials,
  dataSource: DataSource,
  endpoint?: AuthenticatingEndpoint,
): Promise<OAuthClient> {
  return verifyClient(
    credentials,
    await findClient(dataSource, credentials.clientId),
    dataSource,
    endpoint,
  );
}

/**
 * authenticateClient's rules on the client row `application` (null: no client has that id), read
 * by the caller, for every method: checkClient's for secrets and public clients; for a client
 * assertion, the client must be a `private_key_jwt` one and the assertion verified with its
 * keys (client-assertions.ts), then the client enabled.
 */
export async function verifyClient<C extends OAuthClient>(
  credentials: ClientCredentials,
  application: C | null,
  dataSource: DataSource,
  endpoint?: AuthenticatingEndpoint,
): Promise<C> {
  if (credentials.method !== 'jwt') return checkClient(credentials, application);
  if (!application) throw assertionFailed('no such client', credentials.clientId);
  if (application.clientAuthMethod !== 'private_key_jwt') {
    throw assertionFailed('the client does not use private_key_jwt', application.clientId);
  }
  const assertions = clientAssertionsOf(dataSource);
  if (assertions === undefined) throw assertionFailed('no assertion verifier in this process');
  await assertions.verify(application, credentials, endpoint);
  return enabled(application);
}

/**
 * authenticateClient's rules for secrets and public clients on the client row `application`
 * (null: no client has that id), read by the caller: an unknown client and a wrong secret fail
 * alike. A client assertion, or a `private_key_jwt` client, is refused here: only verifyClient
 * verifies assertions, and no secret ever authenticates a client that has keys.
 */
export function checkClient<C extends OAuthClient>(
  credentials: ClientCredentials,
  application: C | null,
): C {
  if (!application) throw invalidClient('Client authentication failed');
  if (credentials.method === 'jwt' || application.clientAuthMethod === 'private_key_jwt') {
    throw invalidClient('Client authentication failed');
  }
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
  return enabled(application);
}

function enabled<C extends OAuthClient>(application: C): C {
  if (!application.enabled) {
    throw new OAuthError('unauthorized_client', 'The application is disabled');
  }
  return application;
}

/**
 * The select list of an OAuthClient from `applications` aliased `a` (written once: client
 * authentication and introspection read the same row). A client under a security profile must
 * use DPoP whatever its own flag says (docs/oidc.md, "FAPI 2.0 Security Profile").
 */
export const oauthClientColumnsSql = (a: string): string =>
  `${a}.id, ${a}.client_id AS "clientId", ${a}.client_auth_method AS "clientAuthMethod",
    ${a}.client_secret_hash AS "clientSecretHash", ${a}.jwks, ${a}.jwks_uri AS "jwksUri",
    ${a}.enabled,
    (${a}.dpop_bound_access_tokens OR ${a}.security_profile IS NOT NULL) AS "dpopBoundAccessTokens",
    ${a}.security_profile AS "securityProfile",
    (${a}.device_code_grant AND ${a}.security_profile IS NULL) AS "deviceCodeGrant"`;

export const FIND_CLIENT = statement(
  `SELECT ${oauthClientColumnsSql('a')}
  FROM applications a WHERE a.client_id = :clientId`,
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
