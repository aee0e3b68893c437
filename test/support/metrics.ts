import type { INestApplication } from '@nestjs/common';
import { MetricsServer } from '../../src/modules/metrics/metrics-server';

/** One sample line of the Prometheus text format: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments and blank lines skipped). */
export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The URL of the app's metrics listener (started with METRICS_PORT=0). */
export function metricsUrl(app: INestApplication): string {
  const port = app.get(MetricsServer).port;
  if (port === undefined) throw new Error('the metrics listener is not running');
  return `http://127.0.0.1:${port}/metrics`;
}

/** A scrape of the app's metrics listener: the raw text and its samples. */
export async function scrape(app: INestApplication): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(metricsUrl(app));
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  const text = await res.text();
  return { text, samples: parseMetrics(text) };
}

/**
 * The value of the sample `name` whose labels include `labels` (0 when absent: a counter not
 * yet incremented has no sample).
 */
export function valueOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

/** How much the sample `name` with `labels` grew from the scrape `before` to `after`. */
export function increase(
  before: readonly Sample[],
  after: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return valueOf(after, name, labels) - valueOf(before, name, labels);
}
