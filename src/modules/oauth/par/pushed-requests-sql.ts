import { statement } from '../../../common/sql/statement';

/**
 * Stores a pushed request unless its client already has `:cap` unexpired ones waiting
 * (PAR_MAX_PENDING_PER_CLIENT): no row is returned then. The count and the insert are one
 * statement; two pushes racing at the cap may both pass, so the cap is a bound on storage, not an
 * exact quota.
 */
export const INSERT_PUSHED_REQUEST = statement(
  `INSERT INTO oauth_pushed_authorization_requests (id, application_id, parameters, expires_at)
  SELECT :id::varchar, :applicationId::integer, :parameters::jsonb, :expiresAt::timestamptz
  WHERE (SELECT count(*) FROM oauth_pushed_authorization_requests
    WHERE application_id = :applicationId AND expires_at > :now::timestamptz) < :cap::integer
  RETURNING 1 AS stored`,
  ['id', 'applicationId', 'parameters', 'expiresAt', 'now', 'cap'],
);

/**
 * Takes a pushed request for its one use (RFC 9126 section 4): the row of this client that has
 * not expired is deleted and its parameters returned, in one statement, so of two uses (a
 * replay, two instances) exactly one finds it. Another client's request_uri matches nothing and
 * stays; an expired one is left to the purge job. (A CTE, so the statement answers rows like a
 * SELECT on every driver.)
 */
export const TAKE_PUSHED_REQUEST = statement(
  `WITH taken AS (DELETE FROM oauth_pushed_authorization_requests
    WHERE id = :id AND application_id = :applicationId AND expires_at > :now
    RETURNING parameters)
  SELECT parameters FROM taken`,
  ['id', 'applicationId', 'now'],
);
