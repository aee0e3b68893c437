/**
 * The two issuers the provider answers as (docs/oidc.md, "Two issuers"): `PUBLIC_BASE_URL`, and
 * `${PUBLIC_BASE_URL}/api/oidc`, the issuer integrations of the original service configure. Each
 * has its own discovery document listing its own endpoints; an authorization started at the
 * alias's authorization endpoint carries the alias (the sealed request, then the code), so the
 * redirect's `iss` and every id_token of that grant name the issuer the client discovered.
 */
export const ALIAS_ISSUER_PATH = '/api/oidc';

/** Which issuer a grant was started under: the alias, or absent (null) for PUBLIC_BASE_URL. */
export type IssuerPath = typeof ALIAS_ISSUER_PATH;

export function issuerUrl(base: string, path: IssuerPath | null | undefined): string {
  return path === ALIAS_ISSUER_PATH ? `${base}${ALIAS_ISSUER_PATH}` : base;
}

/** Every issuer whose id_tokens the keys sign (`SigningKeysService.verify` accepts both). */
export function issuerUrls(base: string): string[] {
  return [base, issuerUrl(base, ALIAS_ISSUER_PATH)];
}
