/** The printed table: per operation and target, medians and the median of per-round ratios. */
import { OPERATIONS, type OpName, type Target } from './target';

export interface Sample {
  perSecond: number;
  /** CPU of the server process per operation, µs. */
  serverUs: number | null;
  /** CPU of the target's PostgreSQL backends per operation, µs (null: no database). */
  postgresUs: number | null;
}

/** samples[target key][op][round] */
export type Samples = Map<string, Map<OpName, Sample[]>>;

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const fmt = (v: number | null, digits = 0): string => (v === null ? '–' : v.toFixed(digits));

function medianOf(samples: Sample[], pick: (s: Sample) => number | null): number | null {
  const values = samples.map(pick).filter((v): v is number => v !== null);
  return values.length ? median(values) : null;
}

export function table(targets: Target[], samples: Samples): string {
  const ours = samples.get('ours');
  const rows: string[][] = [
    ['operation', 'target', 'ops/s', 'ours ÷ target', 'server CPU µs/op', 'PostgreSQL CPU µs/op'],
  ];
  for (const { op, label } of OPERATIONS) {
    for (const target of targets) {
      const mine = samples.get(target.key)?.get(op);
      if (!mine?.length) continue;
      const theirsOf = ours?.get(op);
      // Each round pairs adjacent measurements of ours and the peer; the median of the
      // per-round ratios resists a drifting machine load better than a ratio of medians.
      const ratio =
        target.key === 'ours' || !theirsOf?.length
          ? null
          : median(mine.map((s, i) => theirsOf[i].perSecond / s.perSecond));
      rows.push([
        label,
        target.name,
        fmt(medianOf(mine, (s) => s.perSecond)),
        ratio === null ? '' : `${ratio.toFixed(2)}×`,
        fmt(medianOf(mine, (s) => s.serverUs)),
        target.database ? fmt(medianOf(mine, (s) => s.postgresUs)) : '–',
      ]);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const right = [false, false, true, true, true, true];
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (right[c] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

/** Every round's ops/s, for the record under the table. */
export function perRound(targets: Target[], samples: Samples): string {
  const lines: string[] = [];
  for (const { op, label } of OPERATIONS)
    for (const target of targets) {
      const mine = samples.get(target.key)?.get(op);
      if (mine?.length)
        lines.push(
          `  ${label} · ${target.name}: ${mine.map((s) => s.perSecond.toFixed(0)).join(', ')}`,
        );
    }
  return lines.join('\n');
}
