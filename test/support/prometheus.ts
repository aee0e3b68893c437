import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server';

/** Debian's Prometheus (scripts/test-prerequisites.sh installs it): never a downloaded one. */
export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
/** The scrape job's name, as docs/operations.md asks operators to name theirs (the alerts use it). */
export const SCRAPE_JOB = 'identity-service';

/** An answer of Prometheus's HTTP API (status `success` or `error`). */
export interface ApiAnswer<T> {
  status: string;
  data: T;
  errorType?: string;
  error?: string;
}

/** One series of a range query: its labels and [unix seconds, "value"] pairs. */
export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

/** The HTTP API of the Prometheus at `url`. */
export class PrometheusApi {
  constructor(readonly url: string) {}

  /** GET /api/v1/<path> with `params`; the parsed answer whatever its status. */
  async api<T>(path: string, params: Record<string, string> = {}): Promise<ApiAnswer<T>> {
    const url = new URL(`/api/v1/${path}`, this.url);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const res = await fetch(url);
    return (await res.json()) as ApiAnswer<T>;
  }

  /** An instant query. */
  query(expr: string): Promise<ApiAnswer<{ resultType: string; result: unknown[] }>> {
    return this.api('query', { query: expr });
  }

  /** A range query over [start, end] (unix seconds) every `step` seconds. */
  queryRange(
    expr: string,
    start: number,
    end: number,
    step: number,
  ): Promise<ApiAnswer<{ result: RangeSeries[] }>> {
    return this.api('query_range', {
      query: expr,
      start: String(start),
      end: String(end),
      step: String(step),
    });
  }
}

/**
 * A private Prometheus on a free loopback port, with its data in a temporary directory, scraping
 * `target` (host:port of a metrics listener) every second and loading `ruleFiles`.
 */
export class PrometheusServer extends PrometheusApi {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly log: () => string,
  ) {
    super(`http://127.0.0.1:${port}`);
  }

  static async start(target: string, ruleFiles: string[] = []): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), 'idsvc-prometheus-'));
    const config = join(dir, 'prometheus.yml');
    writeFileSync(config, scrapeConfig(target, ruleFiles));
    const port = await freePort();
    const child = spawn(PROMETHEUS, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // A missing binary is a failure, never a reason to skip (the caller's wait reports it).
    child.once('error', (error) => (log += `\n${String(error)}`));
    return new PrometheusServer(port, dir, child, () => log);
  }

  /**
   * Resolves once the target is up and has been scraped at least `scrapes` times after this call
   * (polling /api/v1/targets and the `up` series); fails with Prometheus's log at the deadline.
   */
  async waitForScrapes(scrapes = 1, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen: number | undefined;
    for (;;) {
      const last = await this.lastScrape().catch(() => undefined);
      if (last !== undefined) {
        seen ??= last;
        if (last > seen) scrapes -= 1;
        seen = last;
        if (scrapes <= 0) return;
      }
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`Prometheus scraped nothing in time:\n${this.log().slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The time (ms) of the target's last scrape once it is up, else undefined. */
  private async lastScrape(): Promise<number | undefined> {
    const answer = await this.api<{ activeTargets: { health: string; lastScrape: string }[] }>(
      'targets',
    );
    const target = answer.data.activeTargets[0];
    return target?.health === 'up' ? Date.parse(target.lastScrape) : undefined;
  }
}

function scrapeConfig(target: string, ruleFiles: string[]): string {
  return [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    `rule_files: ${JSON.stringify(ruleFiles)}`,
    'scrape_configs:',
    `  - job_name: ${SCRAPE_JOB}`,
    `    static_configs: [{ targets: ["${target}"] }]`,
    '',
  ].join('\n');
}
