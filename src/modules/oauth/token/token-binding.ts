/**
 * The DPoP keys a new token pair is bound to (RFC 9449 sections 5 and 6; docs/oauth.md,
 * "Sender-constrained tokens (DPoP)"), by their JWK SHA-256 thumbprints.
 */
export interface TokenBinding {
  /** The key of the token request's proof: binds the access token (its `cnf.jkt`); null: bearer. */
  jkt: string | null;
  /**
   * Binds the refresh token: a public client's `jkt`. A confidential client's refresh token is
   * bound by its client authentication instead (section 5), so null, and each refresh may bind
   * the new access token to another key.
   */
  refreshJkt: string | null;
}

/** The binding of the tokens issued for a request whose proof had key `jkt` (null: no proof). */
export function tokenBinding(jkt: string | null, publicClient: boolean): TokenBinding {
  return { jkt, refreshJkt: publicClient ? jkt : null };
}
