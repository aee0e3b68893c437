import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { markRotatedSql } from '../../../src/modules/tokens/token-sql';
import { createApplication, createUser } from '../../factories';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * The tables the token endpoint updates keep room on their pages (fillfactor 80, migration
 * TokenFillfactor1795630000000): a refresh marks its parent token rotated and an exchange marks
 * its code consumed, and each update stays on its row's page without a new entry in the table's
 * indexes (a HOT update), even on a page that inserts filled. At the default fillfactor of 100 a
 * page filled by inserts has no room, and the same update writes an entry in every index
 * (docs/performance/oauth.md, "Room for updates on the token pages").
 */
let t: TestApp;
let applicationId: number;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  applicationId = (await createApplication(t.app)).application.id;
  userId = (await createUser(t.app)).id;
});
afterAll(async () => {
  await t.close();
});

const ROWS = 300; // enough to fill several pages, so the first of them was filled by inserts
const hex = (): string => randomBytes(32).toString('hex');

/** Runs `update` of the row `id` of `table` in a transaction; its page before and after, HOT or not. */
async function updateOnce(
  table: 'oauth_tokens' | 'oauth_codes',
  id: string,
  update: string,
): Promise<{ pageBefore: number; pageAfter: number; hot: number }> {
  const runner = t.dataSource.createQueryRunner('master');
  const client = (await runner.connect()) as PoolClient;
  const page = async (): Promise<number> =>
    (
      await client.query<{ page: number }>(
        `SELECT (ctid::text::point)[0]::int AS page FROM ${table} WHERE id = $1`,
        [id],
      )
    ).rows[0].page;
  try {
    await client.query('BEGIN');
    const pageBefore = await page();
    await client.query(update, [id]);
    const pageAfter = await page();
    // The counters of this transaction, before it commits: no wait for the statistics collector.
    const { rows } = await client.query<{ hot: string }>(
      `SELECT pg_stat_get_xact_tuples_hot_updated($1::regclass) AS hot`,
      [table],
    );
    await client.query('COMMIT');
    return { pageBefore, pageAfter, hot: Number(rows[0].hot) };
  } catch (error) {
    // The connection goes back to the pool: never inside a failed transaction.
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await runner.release();
  }
}

/** Of `ids`' rows, the one stored first: on the first page those inserts filled. */
async function storedFirst(table: string, ids: string[]): Promise<string> {
  const [row] = await t.dataSource.query<{ id: string }[]>(
    `SELECT id FROM ${table} WHERE id = ANY($1::bigint[]) ORDER BY ctid LIMIT 1`,
    [ids],
  );
  return String(row.id);
}

describe('Room for updates on the token pages', () => {
  it('a refresh’s update of its parent token stays on a page filled by inserts (HOT)', async () => {
    const inserted = await t.dataSource.query<{ id: string }[]>(
      `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash,
         scope, access_expires_at, refresh_expires_at, family_id)
       SELECT $1, $2, a, r, 'read', now() + interval '1 hour', now() + interval '30 days',
              gen_random_uuid()
         FROM unnest($3::text[], $4::text[]) AS h(a, r)
       RETURNING id`,
      [applicationId, userId, Array.from({ length: ROWS }, hex), Array.from({ length: ROWS }, hex)],
    );
    const id = await storedFirst(
      'oauth_tokens',
      inserted.map((row) => row.id),
    );
    const result = await updateOnce('oauth_tokens', id, markRotatedSql('$1', 'now()'));
    expect(result.pageAfter).toBe(result.pageBefore);
    expect(result.hot).toBe(1);
  });

  it('an exchange’s update of its code stays on a page filled by inserts (HOT)', async () => {
    const inserted = await t.dataSource.query<{ id: string }[]>(
      `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, code_challenge,
         scope, expires_at)
       SELECT h, $1, $2, 'https://client.example/cb', $3, 'read', now() + interval '10 minutes'
         FROM unnest($4::text[]) AS c(h)
       RETURNING id`,
      [
        applicationId,
        userId,
        'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        Array.from({ length: ROWS }, hex),
      ],
    );
    const id = await storedFirst(
      'oauth_codes',
      inserted.map((row) => row.id),
    );
    const result = await updateOnce(
      'oauth_codes',
      id,
      'UPDATE oauth_codes SET consumed_at = now() WHERE id = $1',
    );
    expect(result.pageAfter).toBe(result.pageBefore);
    expect(result.hot).toBe(1);
  });
});
