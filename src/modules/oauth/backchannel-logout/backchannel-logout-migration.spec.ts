import { migratedDatabase, MigratedDatabase } from '../../../../test/support/migrated-database';
import { BackchannelLogout1795690000000 } from '../../../database/migrations/1795690000000-BackchannelLogout';

/** The migration of back-channel logout, over sessions opened before it. */
describe(BackchannelLogout1795690000000.name, () => {
  let db: MigratedDatabase;
  const migration = new BackchannelLogout1795690000000();
  beforeAll(async () => {
    db = await migratedDatabase();
  });
  afterAll(() => db.drop());

  async function run(step: 'up' | 'down'): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration[step](runner);
    } finally {
      await runner.release();
    }
  }

  it('gives every session open before it a sid of its own, and goes down and up again', async () => {
    await run('down');
    const [user] = await db.dataSource.query<{ id: string }[]>(
      `INSERT INTO users (username, email, password_hash) VALUES ('old', 'old@example.org', 'x')
       RETURNING id`,
    );
    for (const id of ['a'.repeat(64), 'b'.repeat(64)]) {
      await db.dataSource.query(
        `INSERT INTO oauth_sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
        [id, user.id],
      );
    }
    await run('up');
    const sids = (
      await db.dataSource.query<{ sid: string }[]>('SELECT sid FROM oauth_sessions ORDER BY id')
    ).map((row) => row.sid);
    expect(sids).toHaveLength(2);
    for (const sid of sids) expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(sids).size).toBe(2);
    // Down: the tables and columns go, the sessions stay.
    await run('down');
    expect(await db.dataSource.query('SELECT id FROM oauth_sessions')).toHaveLength(2);
    const [{ exists }] = await db.dataSource.query<{ exists: boolean }[]>(
      "SELECT to_regclass('backchannel_logouts') IS NOT NULL AS exists",
    );
    expect(exists).toBe(false);
    await run('up');
  });
});
