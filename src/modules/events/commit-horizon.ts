import { DataSource, QueryFailedError } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/**
 * First key of an application's event-writer advisory lock, (EVENT_WRITERS_LOCK, application
 * id). The events trigger takes it shared before it draws an id (migration EventCommitOrder
 * holds the same number, "evnt"); the two-key form never collides with one-key advisory locks.
 */
export const EVENT_WRITERS_LOCK = 1702260340;

/**
 * How long a forward poll waits for this application's writers in flight. While it waits, new
 * writers of the application queue behind it, so this bounds their extra wait too.
 */
export const HORIZON_LOCK_TIMEOUT_MS = 1000;

/** PostgreSQL's lock_not_available: lock_timeout expired. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The largest id H such that no event of this application with an id ≤ H can still commit
 * (docs/events.md, "Forward sync"). Holding the writer lock exclusively means every writer that
 * drew an id before has committed or aborted; a writer that draws after the release gets an id
 * above the sequence value read here. The transaction commits at once, so writers are held
 * only for that instant; the caller's next statement takes a fresh snapshot (READ COMMITTED)
 * that sees every one of those commits.
 */
export async function commitHorizon(
  dataSource: DataSource,
  applicationId: number,
): Promise<string> {
  try {
    return await dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL lock_timeout = '${HORIZON_LOCK_TIMEOUT_MS}ms'`);
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [
        EVENT_WRITERS_LOCK,
        applicationId,
      ]);
      const [row] = await manager.query<{ horizon: string }[]>(
        `SELECT (CASE WHEN is_called THEN last_value ELSE last_value - 1 END)::text AS horizon
         FROM events_id_seq`,
      );
      return row.horizon;
    });
  } catch (error) {
    if (pgCode(error) === LOCK_NOT_AVAILABLE) {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'Events of this application are still being written; poll again with the same after',
      );
    }
    throw error;
  }
}

function pgCode(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  return (error.driverError as { code?: string } | undefined)?.code;
}
