/**
 * The arithmetic of the concurrency sweep (docs/performance/oauth.md, "Method"): the levels that
 * BENCH_CONCURRENCY names, one target's phases summarised per level, its peak over the sweep,
 * and the ratios of two targets measured in the same rounds. Nothing here reads a clock, a
 * process or the network, so a test can check it on made-up samples.
 */

/** One timed phase: one target, one operation, one concurrency level, one round. */
export interface Sample {
  /** Connections the load generator held open during the phase. */
  connections: number;
  /** The round the phase belongs to, from 0. */
  round: number;
  perSecond: number;
  /** Latency percentiles of the phase's answers, ms. */
  p50Ms: number;
  p99Ms: number;
  /** CPU of the target's server process(es) per operation, µs (null: /proc did not show it). */
  serverUs: number | null;
  /** CPU of the target's PostgreSQL backends per operation, µs (null: no database). */
  postgresUs: number | null;
  /** Busy share of the whole machine's CPU during the phase, 0 to 1. */
  machineBusy: number | null;
}

/** A target's phases at one level: medians over the rounds. */
export interface Level {
  connections: number;
  rounds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverUs: number | null;
  postgresUs: number | null;
  machineBusy: number | null;
}

export const DEFAULT_LEVELS = [8, 16, 32, 64];

/**
 * The levels of BENCH_CONCURRENCY: a comma-separated list ("8,16,32,64") or one number (the
 * single level the harness used to run), ascending without repeats; the default when unset.
 */
export function parseLevels(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [...DEFAULT_LEVELS];
  const levels = text.split(',').map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`BENCH_CONCURRENCY: "${part}" is not a positive whole number`);
    return value;
  });
  return [...new Set(levels)].sort((a, b) => a - b);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? median(known) : null;
}

/** The samples summarised per level, fewest connections first. */
export function byLevel(samples: Sample[]): Level[] {
  const groups = new Map<number, Sample[]>();
  for (const sample of samples)
    groups.set(sample.connections, [...(groups.get(sample.connections) ?? []), sample]);
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([connections, group]) => ({
      connections,
      rounds: group.length,
      perSecond: median(group.map((s) => s.perSecond)),
      p50Ms: median(group.map((s) => s.p50Ms)),
      p99Ms: median(group.map((s) => s.p99Ms)),
      serverUs: medianOrNull(group.map((s) => s.serverUs)),
      postgresUs: medianOrNull(group.map((s) => s.postgresUs)),
      machineBusy: medianOrNull(group.map((s) => s.machineBusy)),
    }));
}

/**
 * The level with the highest median rate: the target's capacity as far as the sweep shows it.
 * On a tie the fewer connections win (the same rate with less queueing). Null without samples.
 */
export function peakOf(samples: Sample[]): Level | null {
  let best: Level | null = null;
  for (const level of byLevel(samples)) if (!best || level.perSecond > best.perSecond) best = level;
  return best;
}

/** The rounds both targets have samples in, each round's samples of one target beside the other's. */
function pairedRounds(ours: Sample[], theirs: Sample[]): [Sample[], Sample[]][] {
  const rounds = new Set(ours.map((s) => s.round));
  return [...new Set(theirs.map((s) => s.round))]
    .filter((round) => rounds.has(round))
    .sort((a, b) => a - b)
    .map((round) => [
      ours.filter((s) => s.round === round),
      theirs.filter((s) => s.round === round),
    ]);
}

/**
 * Ours' peak ÷ the peer's: per round, ours' best rate over the levels ÷ the peer's best in the
 * same round, then the median over the rounds. A round measures both targets at every level
 * side by side, so a drifting machine load weighs on both peaks alike, as it does on the
 * per-round ratios at one level. Null when the targets share no round.
 */
export function peakRatio(ours: Sample[], theirs: Sample[]): number | null {
  const best = (samples: Sample[]) => Math.max(...samples.map((s) => s.perSecond));
  const ratios = pairedRounds(ours, theirs).map(([o, t]) => best(o) / best(t));
  return ratios.length ? median(ratios) : null;
}

/**
 * Ours' p99 ÷ the peer's at the same number of connections, as the median over the rounds that
 * measured both there. Below 1: ours answers its slowest hundredth sooner. Null when the
 * targets share no round at that level.
 */
export function p99Ratio(ours: Sample[], theirs: Sample[], connections: number): number | null {
  const at = (samples: Sample[]) => samples.filter((s) => s.connections === connections);
  const ratios = pairedRounds(at(ours), at(theirs)).map(([o, t]) => o[0].p99Ms / t[0].p99Ms);
  return ratios.length ? median(ratios) : null;
}

/** Cores the server kept busy at a level: its CPU per operation × operations per second. */
export function coresBusy(level: Level): number | null {
  return level.serverUs === null ? null : (level.serverUs * level.perSecond) / 1e6;
}
