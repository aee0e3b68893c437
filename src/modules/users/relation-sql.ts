/**
 * Conditions on the `app_users` relation that statements of other modules compose (the token
 * endpoint's one-statement paths, userinfo). `alias` is the relation's alias in that statement.
 */

/**
 * The relation lets tokens be issued, refreshed and used: enabled, and the authorization stands
 * (docs/contract/users.md#states-of-a-user-in-an-application: PATCH enabled=false and POST revoke end both). NULL (not true) when the
 * relation row is missing from a LEFT JOIN.
 */
export const relationUsable = (alias: string): string =>
  `(${alias}.enabled AND ${alias}.granted_scope IS NOT NULL)`;

/** Joins the relation of token or code row `row` as `alias` (application and user). */
export const relationOf = (alias: string, row: string): string =>
  `${alias}.application_id = ${row}.application_id AND ${alias}.user_id = ${row}.user_id`;
