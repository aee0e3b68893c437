import { windowAt, WINDOW_MS } from './fixed-window';

describe('windowAt', () => {
  const minute = Date.UTC(2030, 0, 1, 12, 0, 0);

  it('aligns the window to the wall-clock minute', () => {
    const window = windowAt(new Date(minute + 10_000));
    expect(window.index).toBe(minute / WINDOW_MS);
    expect(window.resetEpochSeconds).toBe(minute / 1000 + 60);
    expect(window.secondsToReset).toBe(50);
    // Kept a whole window past its end: 50 s left in this one, then 60 s.
    expect(window.storageTtlMs).toBe(110_000);
  });

  it('rounds the seconds to reset up, so a client never retries early', () => {
    expect(windowAt(new Date(minute + 10_001)).secondsToReset).toBe(50);
    expect(windowAt(new Date(minute + 59_999)).secondsToReset).toBe(1);
  });

  it('starts a new window exactly on the minute', () => {
    const first = windowAt(new Date(minute - 1));
    const second = windowAt(new Date(minute));
    expect(second.index).toBe(first.index + 1);
    expect(second.secondsToReset).toBe(60);
    expect(first.resetEpochSeconds).toBe(minute / 1000);
  });
});
