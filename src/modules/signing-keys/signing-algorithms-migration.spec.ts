import { FixedClock } from '../../../test/support/fixed-clock';
import { migratedDatabase, MigratedDatabase } from '../../../test/support/migrated-database';
import { loadConfig } from '../../config/app-config';
import { SigningAlgorithms1795670000000 } from '../../database/migrations/1795670000000-SigningAlgorithms';
import { loadJose } from './jose';
import { SigningKeysService } from './signing-keys.service';

const START = new Date('2030-01-01T00:00:00Z');
const ISSUER = 'https://id.example.com';
const CLAIMS = { iss: ISSUER, sub: '42', exp: START.getTime() / 1000 + 3600 };

/** The migration that brings PS256, ES256 and EdDSA keys, over keys made before it. */
describe(SigningAlgorithms1795670000000.name, () => {
  let db: MigratedDatabase;
  const migration = new SigningAlgorithms1795670000000();
  beforeAll(async () => {
    db = await migratedDatabase();
  });
  afterAll(() => db.drop());

  const instance = () =>
    new SigningKeysService(
      db.dataSource,
      loadConfig({ PUBLIC_BASE_URL: ISSUER }),
      new FixedClock(START),
    );
  const rows = () => db.dataSource.query('SELECT * FROM signing_keys ORDER BY id');
  const kidOf = async (jws: string) => (await loadJose()).decodeProtectedHeader(jws).kid;
  async function run(step: 'up' | 'down'): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration[step](runner);
    } finally {
      await runner.release();
    }
  }

  it('keeps the RS256 keys made before it: same rows and kids, their tokens verify, and they keep signing', async () => {
    // The schema before it, and an RS256 pair made on it (the only alg there was).
    await run('down');
    const token = await instance().sign(CLAIMS);
    const before = await rows();
    expect(before.map((row: { alg: string; state: string }) => `${row.alg} ${row.state}`)).toEqual([
      'RS256 active',
      'RS256 next',
    ]);
    await run('up');
    expect(await rows()).toEqual(before);
    const service = instance();
    expect(await service.verify(token)).toEqual(CLAIMS);
    expect(await kidOf(await service.sign(CLAIMS))).toBe(await kidOf(token));
    // The other algs get pairs of their own beside it.
    const es = await service.sign(CLAIMS, 'ES256');
    expect(await kidOf(es)).not.toBe(await kidOf(token));
    expect((await rows()).length).toBe(4);
    // Down again: the RS256 keys stay as they were, the others go.
    await run('down');
    expect(await rows()).toEqual(before);
    await run('up');
  });
});
