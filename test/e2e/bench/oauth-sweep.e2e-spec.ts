import {
  byLevel,
  coresBusy,
  DEFAULT_LEVELS,
  p99Ratio,
  parseLevels,
  peakOf,
  peakRatio,
  type Sample,
} from '../../../bench/oauth/sweep';

// The arithmetic of the token-endpoint benchmark's concurrency sweep (bench/oauth/sweep.ts), on
// made-up samples: the benchmark itself is never run by the tests. It sits with the e2e files
// because jest's unit project only looks under src/.

function sample(connections: number, round: number, perSecond: number, p99Ms = 10): Sample {
  return {
    connections,
    round,
    perSecond,
    p50Ms: p99Ms / 4,
    p99Ms,
    serverUs: 200,
    postgresUs: null,
    machineBusy: 0.5,
  };
}

describe('the OAuth benchmark sweep', () => {
  it('reads one level, a list, or the default', () => {
    expect(parseLevels(undefined)).toEqual(DEFAULT_LEVELS);
    expect(parseLevels('')).toEqual(DEFAULT_LEVELS);
    expect(parseLevels('16')).toEqual([16]);
    expect(parseLevels('32, 8,16,8')).toEqual([8, 16, 32]);
    expect(() => parseLevels('8,0')).toThrow(/"0"/);
    expect(() => parseLevels('8,x')).toThrow(/"x"/);
    expect(() => parseLevels('2.5')).toThrow(/"2.5"/);
  });

  it('summarises each level by the medians of its rounds, fewest connections first', () => {
    const levels = byLevel([
      sample(16, 0, 300, 12),
      sample(8, 0, 100, 4),
      sample(16, 1, 500, 20),
      sample(8, 1, 200, 6),
      sample(16, 2, 400, 14),
    ]);
    expect(levels.map((l) => [l.connections, l.rounds, l.perSecond, l.p99Ms])).toEqual([
      [8, 2, 150, 5],
      [16, 3, 400, 14],
    ]);
    expect(levels[1].serverUs).toBe(200);
    expect(levels[1].postgresUs).toBeNull();
    // 200 µs per operation at 400 operations a second: 8 % of one core.
    expect(coresBusy(levels[1])).toBeCloseTo(0.08);
  });

  it('peaks at the level with the highest median rate, the fewer connections on a tie', () => {
    const samples = [sample(8, 0, 100), sample(16, 0, 300), sample(32, 0, 300), sample(64, 0, 250)];
    expect(peakOf(samples)).toMatchObject({ connections: 16, perSecond: 300 });
    expect(peakOf([])).toBeNull();
  });

  it("divides each round's best rate by the peer's best of the same round, then takes the median", () => {
    const ours = [
      sample(8, 0, 100),
      sample(16, 0, 200),
      sample(8, 1, 150),
      sample(16, 1, 120),
      sample(8, 2, 90),
      sample(16, 2, 180),
    ];
    const theirs = [
      sample(8, 0, 100),
      sample(16, 0, 80),
      sample(8, 1, 50),
      sample(16, 1, 100),
      sample(8, 2, 60),
      sample(16, 2, 40),
    ];
    // Round 0: 200 ÷ 100; round 1: 150 ÷ 100; round 2: 180 ÷ 60.
    expect(peakRatio(ours, theirs)).toBeCloseTo(2);
    // A round only one of them ran pairs with nothing.
    expect(peakRatio(ours, [sample(8, 5, 10)])).toBeNull();
  });

  it('compares p99 at the same level only, over the rounds both ran there', () => {
    const ours = [sample(8, 0, 100, 4), sample(16, 0, 100, 8), sample(16, 1, 100, 9)];
    const theirs = [sample(8, 0, 100, 2), sample(16, 0, 100, 16), sample(16, 1, 100, 36)];
    expect(p99Ratio(ours, theirs, 8)).toBeCloseTo(2);
    // Round 0: 8 ÷ 16; round 1: 9 ÷ 36; the median of the two.
    expect(p99Ratio(ours, theirs, 16)).toBeCloseTo(0.375);
    expect(p99Ratio(ours, theirs, 32)).toBeNull();
  });
});
