import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  exchangeBatchStatement,
  exchangeStatement,
  EXCHANGE_INPUTS,
} from '../grants/authorization-code-sql';
import {
  LOCK_STATEMENT,
  REFRESH_INPUTS,
  rotateBatchStatement,
  rotateStatement,
} from '../grants/refresh-token-sql';
import {
  batchParams,
  bindParams,
  inputNames,
  positionalParams,
} from '../../../../common/sql/statement';
import { allHold, outcomeColumn, type TokenStep } from './step';
import { EXCHANGE_STEPS, REFRESH_STEPS } from './registries';
import { refreshTokenNotReplayed, reuseSince } from './check-refresh-token';
import { markRotatedSql } from '../../../tokens/token-sql';

type AnyStep = TokenStep<never, never>;

const isTokenStep = (value: unknown): value is AnyStep =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyStep).holds === 'string' &&
  typeof (value as AnyStep).failure === 'function';

/** Every TokenStep exported by a file of rules/ (this folder). */
function stepsInFolder(): { file: string; name: string; step: AnyStep }[] {
  const dir = __dirname;
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

const squash = (sql: string | { text: string }): string =>
  (typeof sql === 'string' ? sql : sql.text).replace(/\s+/g, ' ');

/** How the single statements bind a fragment: `$n`, n the position in the inputs. */
const EXCHANGE_PARAMS = positionalParams(inputNames(EXCHANGE_INPUTS));
const REFRESH_PARAMS = positionalParams(inputNames(REFRESH_INPUTS));

describe('token endpoint steps', () => {
  it('lists every step of rules/ in a registry, so the fast path enforces it', () => {
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
        /UPDATE oauth_tokens t SET rotated_at = COALESCE\(t.rotated_at, \$2\) FROM cl, app_users au WHERE/,
      );
      expect(statement).toContain(`AND ${guard} RETURNING`);
      for (const step of REFRESH_STEPS) {
        expect(guard).toContain(`(${squash(bindParams(step.holds, REFRESH_PARAMS))})`);
      }
    });
  });

  describe.each(['authenticated', 'public'] as const)('in a batch, with a %s client', (kind) => {
    const exchangeItem = batchParams(inputNames(EXCHANGE_INPUTS));
    const refreshItem = batchParams(inputNames(REFRESH_INPUTS));

    it('issues each exchange of a batch only where every exchange step holds for that item', () => {
      const statement = squash(exchangeBatchStatement(kind));
      const guard = squash(bindParams(allHold(EXCHANGE_STEPS), exchangeItem));
      expect(statement).toContain(`(${guard}) IS TRUE AS ok`);
      expect(statement).toMatch(
        /INSERT INTO oauth_tokens .* FROM r JOIN i ON i.ord = r.ord WHERE r.ok\)/,
      );
      expect(statement).toMatch(
        /INSERT INTO events .* FROM r JOIN i ON i.ord = r.ord WHERE r.ok\)/,
      );
      for (const step of EXCHANGE_STEPS) {
        expect(guard).toContain(`(${squash(bindParams(step.holds, exchangeItem))})`);
        expect(statement).toContain(`AS ${outcomeColumn(step)}`);
      }
      // The client is checked per item, not once for the batch.
      expect(statement).toContain('CROSS JOIN LATERAL (SELECT ');
      expect(statement).not.toContain('$13');
    });

    it('rotates each refresh token of a batch only where every refresh step holds for it', () => {
      const statement = squash(rotateBatchStatement(kind));
      const guard = squash(bindParams(allHold(REFRESH_STEPS), refreshItem));
      // The steps are evaluated on the locked token; only the tokens where all hold are rotated.
      expect(statement).toMatch(
        /WITH i AS MATERIALIZED \( SELECT i\.\*, t\.id AS token_id, \(.*\) IS TRUE AS ok FROM oauth_tokens t JOIN unnest\(.*\) WITH ORDINALITY AS i\(.*\) ON t.refresh_token_hash = i.in_refresh_hash .* FOR UPDATE OF t\)/,
      );
      expect(statement).toContain(`i.*, t.id AS token_id, (${guard}) IS TRUE AS ok`);
      expect(statement).toContain(
        'UPDATE oauth_tokens t SET rotated_at = COALESCE(t.rotated_at, i.in_now) FROM i WHERE t.refresh_token_hash = i.in_refresh_hash AND t.id = i.token_id AND i.ok RETURNING i.ord,',
      );
      // The client is found per item, from the item's own client_id.
      expect(statement).toContain('CROSS JOIN LATERAL (SELECT ');
      for (const step of REFRESH_STEPS) {
        expect(guard).toContain(`(${squash(bindParams(step.holds, refreshItem))})`);
      }
    });
  });

  describe('statement inputs', () => {
    it('binds the single statements by name, `$n` in the order of the inputs', () => {
      for (const kind of ['authenticated', 'public'] as const) {
        expect(exchangeStatement(kind).names).toEqual(Object.keys(EXCHANGE_INPUTS));
        expect(rotateStatement(kind).names).toEqual(Object.keys(REFRESH_INPUTS));
      }
      expect(EXCHANGE_PARAMS).toEqual({
        codeHash: '$1',
        now: '$2',
        client: '$3',
        redirectUri: '$4',
        verifierHash: '$5',
        accessHash: '$6',
        refreshHash: '$7',
        accessExpiresAt: '$8',
        refreshExpiresAt: '$9',
        familyId: '$10',
        jkt: '$11',
        refreshJkt: '$12',
      });
      expect(Object.values(REFRESH_PARAMS)).toEqual(
        Array.from({ length: 11 }, (_, i) => `$${i + 1}`),
      );
    });

    it('runs the items of a batch in the order of their hash (one lock order)', () => {
      for (const kind of ['authenticated', 'public'] as const) {
        expect(exchangeBatchStatement(kind).orderBy).toBe('codeHash');
        expect(rotateBatchStatement(kind).orderBy).toBe('refreshHash');
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

  it("locks with the steps' six parameters, numbered as in the rotation", () => {
    expect(LOCK_STATEMENT.names).toEqual(Object.keys(REFRESH_INPUTS).slice(0, 6));
    const used = [...LOCK_STATEMENT.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
    expect([...new Set(used)].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  describe('the reuse interval', () => {
    it('is part of the replay step, so both paths obey it', () => {
      const holds = bindParams(refreshTokenNotReplayed.holds, REFRESH_PARAMS);
      expect(holds).toBe('t.rotated_at IS NULL OR t.rotated_at >= $5');
      expect(squash(LOCK_STATEMENT)).toContain(`COALESCE(${holds}, false)`);
    });

    it('never moves rotated_at forward, so a reuse cannot extend the interval', () => {
      expect(squash(rotateStatement('public'))).toContain(
        'SET rotated_at = COALESCE(t.rotated_at, $2)',
      );
      expect(markRotatedSql('$10', '$11')).toContain('SET rotated_at = COALESCE(rotated_at, $11)');
    });

    it('starts REFRESH_TOKEN_REUSE_SECONDS before now, and is off (NULL) at 0', () => {
      const now = new Date('2030-01-01T00:00:10.000Z');
      expect(reuseSince(now, 10)).toEqual(new Date('2030-01-01T00:00:00.000Z'));
      expect(reuseSince(now, 0)).toBeNull();
    });
  });
});
