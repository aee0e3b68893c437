import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { INTROSPECTION_RENDERED_SQL } from '../../../src/modules/oauth/token-management/rendered-sql';
import { TOKEN_RENDERED_SQL } from '../../../src/modules/oauth/token/rendered-sql';
import { createApplication, createUser } from '../../factories';
import { relate } from '../../factories/app-users';
import { createTestApp, type TestApp } from '../../support/test-app';

/** Every batch statement of the hot paths (one array parameter per input). */
const BATCH_STATEMENTS = [...TOKEN_RENDERED_SQL, ...INTROSPECTION_RENDERED_SQL].filter(
  (statement) => statement.file.includes('.batch.'),
);

/** A value of each input's element type that matches no row. */
const SAMPLES: Record<string, () => unknown> = {
  text: () => `no-such-${randomUUID()}`,
  varchar: () => `no-such-${randomUUID()}`,
  timestamptz: () => new Date(),
  uuid: () => randomUUID(),
  int: () => 0,
};

/** The arrays of one call with `size` items, one per array parameter `$n::type[]` of the text. */
function arguments_(text: string, size: number): unknown[][] {
  const types = new Map<number, string>();
  for (const [, n, type] of text.matchAll(/\$(\d+)::(\w+)\[\]/g)) types.set(Number(n), type);
  return [...types.keys()]
    .sort((a, b) => a - b)
    .map((n) => {
      const type = types.get(n) as string;
      const sample = SAMPLES[type];
      if (!sample) throw new Error(`no sample value for ${type}[]`);
      return Array.from({ length: size }, sample);
    });
}

/** One application for both groups: neither depends on rows the other leaves. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * The batch statements are prepared once per connection and must settle on the generic plan
 * (docs/performance/oauth.md, "Batch statements planned once"): a statement re-planned on every
 * execution costs more than it runs.
 */
describe('Batch statements', () => {
  it('finds the hot paths’ batch statements', () => {
    expect(BATCH_STATEMENTS.map((s) => s.builder)).toEqual(
      expect.arrayContaining([
        "exchangeBatchStatement('public')",
        "rotateBatchStatement('public')",
        expect.stringContaining('INTROSPECTION_BATCH'),
      ]),
    );
  });

  it.each(BATCH_STATEMENTS.map((s) => [s.builder, s.text] as const))(
    '%s keeps the generic plan after its first executions, whatever the batch size',
    async (_builder, text) => {
      const runner = t.dataSource.createQueryRunner('master');
      const client = (await runner.connect()) as PoolClient;
      const name = `plan_test_${randomUUID().slice(0, 8)}`;
      try {
        for (let run = 0; run < 8; run += 1) {
          await client.query({ name, text, values: arguments_(text, 2 + (run % 4)) });
        }
        const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
          'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1',
          [name],
        );
        expect(rows).toHaveLength(1);
        expect(Number(rows[0].generic_plans)).toBeGreaterThanOrEqual(3);
        expect(Number(rows[0].custom_plans)).toBeLessThanOrEqual(5);
      } finally {
        await client.query(`DEALLOCATE ${name}`);
        await runner.release();
      }
    },
  );
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** How a scan node reads its table: the index it uses (a bitmap scan's, below it), or its type. */
const accessOf = (node: PlanNode): string =>
  node['Index Name'] ?? node.Plans?.[0]?.['Index Name'] ?? node['Node Type'];

/**
 * Introspection finds the presented token by its hash's unique index whether or not the tables
 * were ever analyzed (docs/performance/oauth.md, "Introspection's plan"): without statistics (a
 * new database, autovacuum off) its generic plan once read every token, or every token of the
 * client's application, and filtered them by hash; the plan is kept by each connection, so that
 * grew with the table.
 */
describe("Introspection's generic plan", () => {
  /** The generic plan of `text` for one lookup of client `clientId`, as its nodes. */
  async function genericPlan(text: string, clientId: string): Promise<PlanNode[]> {
    const runner = t.dataSource.createQueryRunner('master');
    const client = (await runner.connect()) as PoolClient;
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      const batch = text.includes('[]');
      const values = [clientId, 'f'.repeat(64), new Date()];
      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>({
        text: `EXPLAIN (FORMAT JSON) ${text}`,
        values: batch ? values.map((value) => [value]) : values,
      });
      return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
    } finally {
      await client.query('RESET plan_cache_mode');
      await runner.release();
    }
  }

  it.each(INTROSPECTION_RENDERED_SQL.map((s) => [s.builder, s.text] as const))(
    '%s reads oauth_tokens by the token hashes only, with or without statistics',
    async (_builder, text) => {
      for (const tokens of [0, 100, 5000]) {
        // TRUNCATE, not t.truncate() (DELETE, which keeps the pages): new, empty files that
        // were never analyzed, as in a new database.
        await t.dataSource.query('TRUNCATE oauth_tokens, app_users, applications, users CASCADE');
        const { application } = await createApplication(t.app, { name: 'Plans' });
        const user = await createUser(t.app);
        await relate(t, application.id, user.id);
        // Tokens of one application and user: the shape of a busy client.
        await t.dataSource.query(
          `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash,
                                     refresh_token_hash, scope, access_expires_at,
                                     refresh_expires_at, family_id)
           SELECT $1, $2, md5('a' || n) || md5('a' || n), md5('r' || n) || md5('r' || n),
                  'openid', now() + interval '1 hour', now() + interval '1 day', gen_random_uuid()
           FROM generate_series(1, $3::int) AS n`,
          [application.id, user.id, tokens],
        );
        // Without statistics at every size; with them at a size where the index is the cheaper
        // read. Statistics of a small table make a scan the cheaper plan, rightly, until
        // autovacuum analyzes the grown table again (docs/operations.md, "PostgreSQL statistics").
        for (const analyzed of tokens >= 5000 ? [false, true] : [false]) {
          if (analyzed)
            await t.dataSource.query('ANALYZE oauth_tokens, app_users, applications, users');
          const tokenReads = (await genericPlan(text, application.clientId)).filter(
            (node) => node['Relation Name'] === 'oauth_tokens',
          );
          // The access lookup, the refresh lookup, and the refresh lookup's successor check.
          expect({ tokens, analyzed, reads: tokenReads.map(accessOf) }).toStrictEqual({
            tokens,
            analyzed,
            reads: [
              'uq_oauth_tokens_access_token_hash',
              'uq_oauth_tokens_refresh_token_hash',
              'idx_oauth_tokens_family_generation',
            ],
          });
        }
      }
    },
  );
});
