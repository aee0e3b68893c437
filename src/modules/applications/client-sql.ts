/**
 * The application id of the public OAuth client whose client_id is `clientIdParam`: registered
 * with `client_auth_method = 'none'` and enabled (docs/contract/oauth.md#clients-and-client-authentication), else no row. The token
 * endpoint's one-statement paths compose it as their client check.
 */
export const publicClientIdSql = (clientIdParam: string): string =>
  `SELECT id FROM applications
    WHERE client_id = ${clientIdParam}::varchar AND client_auth_method = 'none' AND enabled`;
