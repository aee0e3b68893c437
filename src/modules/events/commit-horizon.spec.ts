import { DataSource, QueryFailedError } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { commitHorizon, EVENT_WRITERS_LOCK } from './commit-horizon';

/** A DataSource whose transaction runs `query` for every statement. */
function fakeDataSource(query: (sql: string, params?: unknown[]) => unknown): DataSource {
  const manager = {
    query: (sql: string, params?: unknown[]) => Promise.resolve().then(() => query(sql, params)),
  };
  return {
    transaction: async (work: (m: typeof manager) => Promise<unknown>) => work(manager),
  } as unknown as DataSource;
}

const pgError = (code: string) =>
  new QueryFailedError(
    'SELECT pg_advisory_xact_lock($1, $2)',
    [],
    Object.assign(new Error('x'), { code }),
  );

describe('commitHorizon', () => {
  it('takes the writer lock of the application, then reads the sequence', async () => {
    const seen: unknown[] = [];
    const horizon = await commitHorizon(
      fakeDataSource((sql, params) => {
        seen.push(params ?? sql.split(' ')[0]);
        return sql.includes('events_id_seq') ? [{ horizon: '41' }] : [];
      }),
      7,
    );
    expect(horizon).toBe('41');
    expect(seen).toEqual(['SET', [EVENT_WRITERS_LOCK, 7], 'SELECT']);
  });

  it('answers 503 service_unavailable when the writers outlast lock_timeout', async () => {
    const failing = fakeDataSource((sql) => {
      if (sql.includes('pg_advisory_xact_lock')) throw pgError('55P03');
      return [];
    });
    const error = await commitHorizon(failing, 7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).toBody()).toEqual({
      error: 'service_unavailable',
      message: expect.stringContaining('poll again'),
    });
  });

  it('lets other database errors through', async () => {
    const failing = fakeDataSource(() => {
      throw pgError('57P01');
    });
    await expect(commitHorizon(failing, 7)).rejects.toBeInstanceOf(QueryFailedError);
  });
});
