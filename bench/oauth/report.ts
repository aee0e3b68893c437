/**
 * The printed report, as markdown tables that can be pasted into the docs: per operation and
 * target, the peak rate over the concurrency sweep with the CPU spent there, then every level's
 * rate, latency and CPU, then each round's rates for the record.
 */
import { byLevel, coresBusy, type Level, p99Ratio, peakOf, peakRatio, type Sample } from './sweep';
import { OPERATIONS, type OpName, type Target } from './target';

export { median, type Sample } from './sweep';

/** samples[target key][op]: every timed phase of that target and operation, all levels and rounds. */
export type Samples = Map<string, Map<OpName, Sample[]>>;

const fmt = (v: number | null, digits = 0): string => (v === null ? '–' : v.toFixed(digits));
/** Milliseconds: two decimals below 10 ms, one above. */
const ms = (v: number): string => (Number.isNaN(v) ? '–' : v.toFixed(v < 10 ? 2 : 1));
const times = (v: number | null): string => (v === null ? '' : `${v.toFixed(2)}×`);
const percent = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(0)} %`);

/** A markdown table, columns padded; `right` marks the numeric columns, aligned right. */
function markdown(rows: string[][], right: boolean[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (right[c] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

/** Each operation's targets in the harness's order, with their samples (those that have any). */
function* cells(
  targets: Target[],
  samples: Samples,
): Generator<{ op: OpName; label: string; target: Target; mine: Sample[]; ours?: Sample[] }> {
  for (const { op, label } of OPERATIONS)
    for (const target of targets) {
      const mine = samples.get(target.key)?.get(op);
      if (!mine?.length) continue;
      const ours = target.key === 'ours' ? undefined : samples.get('ours')?.get(op);
      yield { op, label, target, mine, ours: ours?.length ? ours : undefined };
    }
}

/** The CPU columns of one level: server µs/op and cores, PostgreSQL µs/op, the machine's share. */
function cpuCells(target: Target, level: Level): string[] {
  return [
    fmt(level.serverUs),
    fmt(coresBusy(level), 2),
    target.database ? fmt(level.postgresUs) : '–',
    percent(level.machineBusy),
  ];
}

const CPU_HEADERS = ['server CPU µs/op', 'server cores', 'PostgreSQL CPU µs/op', 'machine busy'];

/**
 * The ratio column of a row: ours ÷ the target, except for ours scaled out over several
 * processes, whose row reads the other way round, the scaled target ÷ ours (its scale-out
 * factor, above 1 when the processes together do better), marked as such.
 */
function ratioCell(
  target: Target,
  mine: Sample[],
  ours: Sample[] | undefined,
  ratio: (a: Sample[], b: Sample[]) => number | null,
): string {
  if (!ours) return times(null);
  return target.children.length > 1
    ? `${times(ratio(mine, ours))} (÷ ours)`
    : times(ratio(ours, mine));
}

/** Per operation and target: the peak rate, where it was reached, ours ÷ target, the CPU there. */
export function peakTable(targets: Target[], samples: Samples): string {
  const rows: string[][] = [
    ['operation', 'target', 'peak ops/s', 'at connections', 'ours ÷ target', ...CPU_HEADERS],
  ];
  for (const { label, target, mine, ours } of cells(targets, samples)) {
    const peak = peakOf(mine)!;
    rows.push([
      label,
      target.name,
      fmt(peak.perSecond),
      String(peak.connections),
      ratioCell(target, mine, ours, peakRatio),
      ...cpuCells(target, peak),
    ]);
  }
  return markdown(rows, [false, false, true, true, true, true, true, true, true]);
}

/** Per operation, target and level: rate, p50 and p99, ours' p99 ÷ target's there, the CPU. */
export function levelTable(targets: Target[], samples: Samples): string {
  const rows: string[][] = [
    [
      'operation',
      'target',
      'connections',
      'ops/s',
      'p50 ms',
      'p99 ms',
      'p99 ours ÷ target',
      ...CPU_HEADERS,
    ],
  ];
  for (const { label, target, mine, ours } of cells(targets, samples))
    for (const level of byLevel(mine))
      rows.push([
        label,
        target.name,
        String(level.connections),
        fmt(level.perSecond),
        ms(level.p50Ms),
        ms(level.p99Ms),
        ratioCell(target, mine, ours, (a, b) => p99Ratio(a, b, level.connections)),
        ...cpuCells(target, level),
      ]);
  return markdown(rows, [false, false, true, true, true, true, true, true, true, true, true]);
}

/** Every round's ops/s at each level, for the record under the tables. */
export function perRound(targets: Target[], samples: Samples): string {
  const lines: string[] = [];
  for (const { label, target, mine } of cells(targets, samples)) {
    const levels = [...new Set(mine.map((s) => s.connections))].sort((a, b) => a - b);
    const rates = levels.map(
      (c) =>
        `${c}: ${mine
          .filter((s) => s.connections === c)
          .map((s) => s.perSecond.toFixed(0))
          .join(', ')}`,
    );
    lines.push(`  ${label} · ${target.name}: ${rates.join('; ')}`);
  }
  return lines.join('\n');
}
