import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { INTROSPECTION_RENDERED_SQL } from '../../../src/modules/oauth/token-management/rendered-sql';
import { TOKEN_RENDERED_SQL } from '../../../src/modules/oauth/token/rendered-sql';
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

/**
 * The batch statements are prepared once per connection and must settle on the generic plan
 * (docs/performance/oauth.md, "Batch statements planned once"): a statement re-planned on every
 * execution costs more than it runs.
 */
describe('Batch statements', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

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
