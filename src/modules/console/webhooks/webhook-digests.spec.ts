import { replayDigest, replayFromBody, webhookUrlDigest } from './webhook-digests';

describe('webhook confirmation digests', () => {
  it('binds a URL: another URL, or the same text as a replay start, gives another digest', () => {
    const digest = webhookUrlDigest('https://hooks.example/in');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(webhookUrlDigest('https://hooks.example/in')).toBe(digest);
    expect(webhookUrlDigest('https://hooks.example/other')).not.toBe(digest);
    expect(replayDigest({ fromTime: 'https://hooks.example/in' })).not.toBe(digest);
  });

  it('binds a replay start: event or time, and which one', () => {
    const fromEvent = replayDigest({ fromEventId: '12' });
    expect(replayDigest({ fromEventId: '12' })).toBe(fromEvent);
    expect(replayDigest({ fromEventId: '13' })).not.toBe(fromEvent);
    expect(replayDigest({ fromTime: '12' })).not.toBe(fromEvent);
  });

  it('reads exactly one start from a body, times in upper case', () => {
    expect(replayFromBody({ fromEventId: 12 })).toEqual({ fromEventId: '12' });
    expect(replayFromBody({ fromTime: '2026-05-01t00:00:00z' })).toEqual({
      fromTime: '2026-05-01T00:00:00Z',
    });
    for (const body of [
      {},
      { fromEventId: 1, fromTime: '2026-05-01T00:00:00Z' },
      { fromTime: 'yesterday' },
      { fromTime: '2026-02-30T00:00:00Z' },
      { fromEventId: 0 },
      { fromEventId: 1e21 },
    ]) {
      expect(() => replayFromBody(body)).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
    }
  });
});
