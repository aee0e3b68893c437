/**
 * The configured name of an upstream provider as an SQL expression, for statements of other
 * modules that need it in the same round trip (userinfo's `upstreams[].upstream_name`). This
 * module owns `upstream_providers`: its name and columns are written here and in the entity.
 */

/**
 * `(SELECT display_name …)` of the provider whose id is `providerId` (an SQL expression): one
 * probe of pk_upstream_providers; NULL once the provider's configuration has been removed.
 */
export const providerDisplayNameSql = (providerId: string): string =>
  `(SELECT upstream_provider.display_name FROM upstream_providers upstream_provider
     WHERE upstream_provider.id = ${providerId})`;
