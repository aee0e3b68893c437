import type { SendOutcome } from '../../webhooks/webhook-sender';
import { ABANDON_AFTER_MS, attemptResult } from './backchannel-outcome';

const QUEUED = new Date('2026-05-01T00:00:00Z');
const NOW = new Date(QUEUED.getTime() + 60_000);

const answer = (status: number | null, retryAfter: string | null = null): SendOutcome => ({
  status,
  retryAfter,
  error: status === null ? 'connect ECONNREFUSED' : null,
  latencyMs: 1,
});

describe('attemptResult', () => {
  it('delivers on a 2xx', () => {
    expect(attemptResult(answer(204), 2, QUEUED, NOW)).toEqual({
      status: 'delivered',
      attempts: 3,
      next: null,
    });
  });

  it.each([400, 401, 403, 404, 410, 422])(
    'takes %i as the receiver refusing the token, for good',
    (status) => {
      expect(attemptResult(answer(status), 0, QUEUED, NOW)).toEqual({
        status: 'refused',
        attempts: 1,
        next: null,
      });
    },
  );

  it.each([null, 302, 408, 425, 429, 500, 503])('retries %p after the backoff', (status) => {
    const result = attemptResult(answer(status), 0, QUEUED, NOW);
    expect(result.status).toBe('pending');
    const wait = result.next!.getTime() - NOW.getTime();
    expect(wait).toBeGreaterThanOrEqual(5_000);
    expect(wait).toBeLessThanOrEqual(6_000);
  });

  it('honours Retry-After, capped at an hour', () => {
    expect(attemptResult(answer(503, '120'), 0, QUEUED, NOW).next).toEqual(
      new Date(NOW.getTime() + 120_000),
    );
    expect(attemptResult(answer(429, '86400'), 0, QUEUED, NOW).next).toEqual(
      new Date(NOW.getTime() + 3_600_000),
    );
  });

  it('abandons a logout that has failed for 24 hours since it was queued', () => {
    const late = new Date(QUEUED.getTime() + ABANDON_AFTER_MS);
    expect(attemptResult(answer(503), 9, QUEUED, late)).toEqual({
      status: 'abandoned',
      attempts: 10,
      next: null,
    });
    // A refusal stays a refusal, a success a success, however late.
    expect(attemptResult(answer(400), 9, QUEUED, late).status).toBe('refused');
    expect(attemptResult(answer(200), 9, QUEUED, late).status).toBe('delivered');
  });
});
