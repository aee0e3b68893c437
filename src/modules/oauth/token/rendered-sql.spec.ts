import { orphanedSqlFiles, renderedSqlDrift } from '../../../common/sql/rendered-sql';
import { TOKEN_RENDERED_SQL } from './rendered-sql';

// The committed rendered SQL of the token endpoint is what the code runs (src/common/sql/rendered-sql.ts).
describe('rendered SQL of the token endpoint', () => {
  it.each(TOKEN_RENDERED_SQL.map((s) => [s.builder, s] as const))(
    '%s matches its committed file',
    (_, statement) => {
      const drift = renderedSqlDrift(statement);
      if (drift !== null) throw new Error(drift);
    },
  );

  it('commits no .sql file that no statement renders', () => {
    expect(orphanedSqlFiles(TOKEN_RENDERED_SQL)).toEqual([]);
  });
});
