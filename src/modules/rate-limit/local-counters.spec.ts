import { LocalCounters } from './local-counters';

describe('LocalCounters', () => {
  let now: number;
  let counters: LocalCounters;

  beforeEach(() => {
    now = 1_000_000;
    counters = new LocalCounters(() => now);
  });

  it('counts hits on a key and peeks without counting', () => {
    expect(counters.increment('a', 1000)).toBe(1);
    expect(counters.increment('a', 1000)).toBe(2);
    expect(counters.peek('a')).toBe(2);
    expect(counters.peek('a')).toBe(2);
    expect(counters.peek('b')).toBe(0);
  });

  it('keeps the lifetime set by the first hit and starts over once it has passed', () => {
    counters.increment('a', 1000);
    now += 999;
    expect(counters.increment('a', 1000)).toBe(2);
    now += 1;
    expect(counters.peek('a')).toBe(0);
    expect(counters.increment('a', 1000)).toBe(1);
  });

  it('sweeps expired counters, and only those, on an increment after the prune interval', () => {
    counters.increment('short', 1000);
    counters.increment('long', 60_000);
    now += 5_000;
    counters.increment('other', 60_000);
    expect(counters.size).toBe(3); // within the interval: nothing swept yet
    now += 5_000;
    counters.increment('other', 60_000);
    expect(counters.size).toBe(2);
    expect(counters.peek('long')).toBe(1);
    expect(counters.peek('other')).toBe(2);
  });

  it('clear drops every counter', () => {
    counters.increment('a', 1000);
    counters.clear();
    expect(counters.size).toBe(0);
    expect(counters.increment('a', 1000)).toBe(1);
  });

  it('gives back one hit: never below 0, never reviving or creating a counter', () => {
    counters.increment('a', 1000);
    counters.increment('a', 1000);
    expect(counters.decrement('a')).toBe(1);
    expect(counters.decrement('a')).toBe(0);
    expect(counters.decrement('a')).toBe(0);
    expect(counters.peek('a')).toBe(0);
    expect(counters.increment('a', 1000)).toBe(1);
    expect(counters.decrement('unknown')).toBe(0);
    expect(counters.size).toBe(1);
    now += 1000; // expired: nothing to give back, and it does not start over
    expect(counters.decrement('a')).toBe(0);
    expect(counters.increment('a', 1000)).toBe(1);
  });

  it('keeps the lifetime of a counter it gives back to', () => {
    counters.increment('a', 1000);
    counters.increment('a', 1000);
    now += 500;
    counters.decrement('a');
    now += 499;
    expect(counters.peek('a')).toBe(1);
    now += 1;
    expect(counters.peek('a')).toBe(0);
  });
});
