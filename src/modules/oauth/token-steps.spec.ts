import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exchangeStatement, EXCHANGE_PARAMS } from './redeem-code';
import { LOCK_STATEMENT, REFRESH_PARAMS, rotateStatement } from './rotate-refresh';
import { allHold, bindParams, outcomeColumn, type TokenStep } from './token-step';
import { EXCHANGE_STEPS, REFRESH_STEPS } from './token-steps';

type AnyStep = TokenStep<never, never>;

const isTokenStep = (value: unknown): value is AnyStep =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyStep).holds === 'string' &&
  typeof (value as AnyStep).failure === 'function';

/** Every TokenStep exported by a file of steps/. */
function stepsInFolder(): { file: string; name: string; step: AnyStep }[] {
  const dir = join(__dirname, 'steps');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .flatMap((file) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exports = require(join(dir, file)) as Record<string, unknown>;
      return Object.entries(exports)
        .filter(([, value]) => isTokenStep(value))
        .map(([name, step]) => ({ file, name, step: step as AnyStep }));
    });
}

const squash = (sql: string): string => sql.replace(/\s+/g, ' ');

describe('token endpoint steps (issue 9, item 2)', () => {
  it('lists every step of steps/ in a registry, so the fast path enforces it', () => {
    const registered = new Set<unknown>([...EXCHANGE_STEPS, ...REFRESH_STEPS]);
    const found = stepsInFolder();
    expect(found.length).toBeGreaterThanOrEqual(registered.size);
    const unregistered = found.filter(({ step }) => !registered.has(step));
    expect(unregistered.map(({ file, name }) => `${file}: ${name}`)).toEqual([]);
  });

  it('gives each step a distinct name within its registry', () => {
    for (const steps of [EXCHANGE_STEPS, REFRESH_STEPS]) {
      const names = steps.map((s) => s.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  describe.each(['authenticated', 'public'] as const)('with a %s client', (kind) => {
    it('issues a code exchange only where every exchange step holds', () => {
      const statement = squash(exchangeStatement(kind));
      const guard = squash(bindParams(allHold(EXCHANGE_STEPS), EXCHANGE_PARAMS));
      // The token INSERT reads from r WHERE ok, and ok is the conjunction of every step.
      expect(statement).toContain(`(${guard}) IS TRUE AS ok`);
      expect(statement).toMatch(/INSERT INTO oauth_tokens .* FROM r WHERE ok/);
      for (const step of EXCHANGE_STEPS) {
        expect(guard).toContain(`(${squash(bindParams(step.holds, EXCHANGE_PARAMS))})`);
        expect(statement).toContain(`AS ${outcomeColumn(step)}`);
      }
    });

    it('rotates a refresh token only where every refresh step holds', () => {
      const statement = squash(rotateStatement(kind));
      const guard = squash(bindParams(allHold(REFRESH_STEPS), REFRESH_PARAMS));
      expect(statement).toMatch(
        /UPDATE oauth_tokens t SET rotated_at = \$2 FROM cl, app_users au WHERE/,
      );
      expect(statement).toContain(`AND ${guard} RETURNING`);
      for (const step of REFRESH_STEPS) {
        expect(guard).toContain(`(${squash(bindParams(step.holds, REFRESH_PARAMS))})`);
      }
    });
  });

  it('names refresh failures from the same conditions', () => {
    const statement = squash(LOCK_STATEMENT);
    for (const step of REFRESH_STEPS) {
      const holds = squash(bindParams(step.holds, REFRESH_PARAMS));
      expect(statement).toContain(`COALESCE(${holds}, false) AS ${outcomeColumn(step)}`);
    }
  });

  it('binds named parameters and leaves casts alone', () => {
    expect(bindParams('a = :now AND b = :scope::text', { now: '$2', scope: '$4' })).toBe(
      'a = $2 AND b = $4::text',
    );
    expect(() => bindParams('a = :nope', {})).toThrow('unknown statement parameter :nope');
  });
});
