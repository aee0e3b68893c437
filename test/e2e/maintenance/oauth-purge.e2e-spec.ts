import { randomUUID } from 'node:crypto';
import {
  PurgeService,
  type PurgeCounts,
  type PurgeResult,
} from '../../../src/modules/maintenance/purge.service';
import { oauthSetup } from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOTHING: PurgeCounts = {
  codes: 0,
  sessions: 0,
  spentRequests: 0,
  pushedRequests: 0,
  deviceCodes: 0,
  clientAssertions: 0,
  dpopProofs: 0,
  tokens: 0,
  passkeyCeremonies: 0,
  passkeyConfirmations: 0,
  signingKeys: 0,
  oneTimeCodes: 0,
  signIns: 0,
  backchannelLogouts: 0,
};

/** Expired codes, sessions, spent requests and tokens are purged, live ones kept. */
describe('Purge of expired OAuth rows', () => {
  let t: TestApp;
  // A second instance on the same database exists only with DATABASE_URL: the embedded database
  // belongs to one process (data-dir lock), so there the in-process guard is what is tested.
  let other: TestApp | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    if (usingRealServices()) other = await createTestApp({ clock: t.clock });
  });
  afterAll(async () => {
    await other?.close();
    await t.close();
  });
  beforeEach(() => t.truncate());

  /** Rows on both sides of the moment one hour from now (labels are stored in the key columns). */
  async function seed(): Promise<void> {
    const { application, user } = await oauthSetup(t.app);
    const at = (ms: number) => new Date(t.clock.now().getTime() + ms);
    const code = (label: string, expiresIn: number) =>
      t.dataSource.query(
        `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, scope, expires_at, consumed_at)
         VALUES ($1, $2, $3, 'https://client.example/cb', 'read', $4, $5)`,
        [label, application.id, user.id, at(expiresIn), at(0)],
      );
    await code('code-gone', -DAY);
    await code('code-replay-window', 30 * MINUTE);
    const session = (label: string, expiresIn: number) =>
      t.dataSource.query(
        'INSERT INTO oauth_sessions (id, user_id, expires_at, sid) VALUES ($1, $2, $3, $1)',
        [label, user.id, at(expiresIn)],
      );
    await session('session-gone', 30 * MINUTE);
    await session('session-live', 2 * HOUR);
    const spent = (label: string, expiresIn: number) =>
      t.dataSource.query(
        'INSERT INTO oauth_spent_authorization_requests (id, expires_at) VALUES ($1, $2)',
        [label, at(expiresIn)],
      );
    await spent('spent-gone', 30 * MINUTE);
    await spent('spent-live', 2 * HOUR);
    const pushed = (label: string, expiresIn: number) =>
      t.dataSource.query(
        `INSERT INTO oauth_pushed_authorization_requests (id, application_id, parameters, expires_at)
         VALUES ($1, $2, '{}', $3)`,
        [label, application.id, at(expiresIn)],
      );
    await pushed('pushed-gone', 30 * MINUTE);
    await pushed('pushed-live', 2 * HOUR);
    const device = (label: string, expiresIn: number) =>
      t.dataSource.query(
        `INSERT INTO oauth_device_codes (device_code_hash, user_code_hash, application_id, scope,
           interval_seconds, expires_at)
         VALUES ($1, $1, $2, 'read', 5, $3)`,
        [label, application.id, at(expiresIn)],
      );
    await device('device-gone', 30 * MINUTE);
    await device('device-live', 2 * HOUR);
    const token = (label: string, access: number, refresh: number | null, spentAt?: number) =>
      t.dataSource.query(
        `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
           access_expires_at, refresh_expires_at, family_id, rotated_at, revoked_at)
         VALUES ($1, $2, $3, $4, 'read', $5, $6, $7, $8, $8)`,
        [
          application.id,
          user.id,
          label,
          refresh === null ? null : `${label}-refresh`,
          at(access),
          refresh === null ? null : at(refresh),
          randomUUID(),
          spentAt === undefined ? null : at(spentAt),
        ],
      );
    await token('token-both-expired', 30 * MINUTE, 30 * MINUTE);
    await token('token-no-refresh-expired', 30 * MINUTE, null);
    await token('token-rotated-refresh-expired', -DAY, 30 * MINUTE, -DAY);
    await token('token-refresh-live', 30 * MINUTE, 30 * DAY);
    await token('token-revoked-refresh-unexpired', 30 * MINUTE, 30 * DAY, 0);
    await token('token-access-live', 2 * HOUR, null);
  }

  // Passkey rows are purged too; console-confirmations.e2e-spec.ts seeds and checks those.
  const EXPECTED: PurgeCounts = {
    ...NOTHING,
    codes: 1,
    sessions: 1,
    spentRequests: 1,
    pushedRequests: 1,
    deviceCodes: 1,
    tokens: 3,
  };

  async function survivors(): Promise<string[]> {
    const rows = await t.dataSource.query<{ label: string }[]>(
      `SELECT code_hash AS label FROM oauth_codes
       UNION ALL SELECT id FROM oauth_sessions
       UNION ALL SELECT id FROM oauth_spent_authorization_requests
       UNION ALL SELECT id FROM oauth_pushed_authorization_requests
       UNION ALL SELECT device_code_hash FROM oauth_device_codes
       UNION ALL SELECT access_token_hash FROM oauth_tokens ORDER BY 1`,
    );
    return rows.map((row) => row.label);
  }

  it('deletes exactly the expired and spent rows and keeps live ones', async () => {
    await seed();
    const purge = t.app.get(PurgeService);
    expect(await purge.runOnce()).toEqual({ ran: true, deleted: NOTHING });
    t.clock.advance(HOUR);
    expect(await purge.runOnce()).toEqual({ ran: true, deleted: EXPECTED });
    expect(await survivors()).toEqual([
      'code-replay-window',
      'device-live',
      'pushed-live',
      'session-live',
      'spent-live',
      'token-access-live',
      'token-refresh-live',
      'token-revoked-refresh-unexpired',
    ]);
    expect(await purge.runOnce()).toEqual({ ran: true, deleted: NOTHING });
  });

  it('deletes back-channel logouts a week after they were queued once they are final, never a pending one', async () => {
    const { application, user } = await oauthSetup(t.app);
    const queued = new Date(t.clock.now().getTime() - 7 * DAY - MINUTE);
    for (const status of ['delivered', 'refused', 'abandoned', 'pending']) {
      await t.dataSource.query(
        `INSERT INTO backchannel_logouts (application_id, sid, user_id, created_at, status)
         VALUES ($1, $2, $3, $4, $2)`,
        [application.id, status, user.id, queued],
      );
    }
    // A final one of six days ago stays.
    await t.dataSource.query(
      `INSERT INTO backchannel_logouts (application_id, sid, user_id, created_at, status)
       VALUES ($1, 'recent', $2, $3, 'delivered')`,
      [application.id, user.id, new Date(t.clock.now().getTime() - 6 * DAY)],
    );
    const { deleted } = await t.app.get(PurgeService).runOnce();
    expect(deleted.backchannelLogouts).toBe(3);
    const left = await t.dataSource.query<{ sid: string }[]>(
      'SELECT sid FROM backchannel_logouts ORDER BY sid',
    );
    expect(left.map((row) => row.sid)).toEqual(['pending', 'recent']);
  });

  it('lets one run purge at a time: a run that starts meanwhile skips', async () => {
    await seed();
    t.clock.advance(HOUR);
    const one = t.app.get(PurgeService);
    const two = other ? other.app.get(PurgeService) : one;
    let meanwhile: PurgeResult | undefined;
    const first = await one.runOnce({
      whileLocked: async () => {
        meanwhile = await two.runOnce();
      },
    });
    expect(meanwhile).toEqual({ ran: false, deleted: NOTHING });
    expect(first).toEqual({ ran: true, deleted: EXPECTED });
    expect(await two.runOnce()).toEqual({ ran: true, deleted: NOTHING });
  });
});
