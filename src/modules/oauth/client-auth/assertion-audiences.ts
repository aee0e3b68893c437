import { ALIAS_ISSUER_PATH, issuerUrls } from '../../signing-keys/issuers';
import { providerMetadata } from '../discovery/discovery';
import type { ProviderMetadata } from '../discovery/metadata.openapi';

/** An endpoint of the metadata document that authenticates clients. */
export type AuthenticatingEndpoint = {
  [K in keyof ProviderMetadata]: K extends `${string}_endpoint` ? K : never;
}[keyof ProviderMetadata];

/**
 * The `aud` values a client assertion is accepted with (docs/oauth.md, "Client
 * authentication"), under both issuers (signing-keys/issuers.ts):
 * - each issuer identifier (RFC 7523bis and FAPI 2.0: the value a client should use);
 * - each issuer's token endpoint URL (OIDC Core section 9 and RFC 7523 section 3: what clients
 *   written to those send);
 * - the URL of the endpoint the request was sent to, `endpoint` of either issuer's metadata
 *   (the revocation or introspection endpoint; FAPI 2.0 allows it).
 * Nothing else: not another endpoint's URL, not a prefix, not a URL with a trailing slash.
 */
export function assertionAudiences(base: string, endpoint?: AuthenticatingEndpoint): string[] {
  const documents = [providerMetadata(base), providerMetadata(base, ALIAS_ISSUER_PATH)];
  const urls = [
    ...issuerUrls(base),
    ...documents.map((metadata) => metadata.token_endpoint),
    ...(endpoint === undefined ? [] : documents.map((metadata) => metadata[endpoint])),
  ];
  return [...new Set(urls.filter((url): url is string => typeof url === 'string'))];
}
