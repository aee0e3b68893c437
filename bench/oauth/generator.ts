/**
 * The load generator, a process of its own (forked by main.ts): autocannon, driven
 * programmatically, the same for every target. One message in (a Load), one message out (a
 * LoadResult); the parent reads the servers' CPU around it.
 */
import autocannon from 'autocannon';

/** One timed phase: `amount` requests, the i-th built from variants[i % variants.length]. */
export interface Load {
  /**
   * Where to send the requests: one URL, or one per server instance of the target, which
   * autocannon spreads the connections over round robin (connection i to url[i % n]), so each
   * instance gets an equal share of them and of the requests.
   */
  url: string | string[];
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  variants: { headers?: Record<string, string>; body?: string }[];
  amount: number;
  connections: number;
  /** Every answer must be 200 and contain this. */
  expect: string;
  /** Send the answers' bodies back (the exchange phase's tokens feed the refresh phase). */
  collect: boolean;
}

export interface LoadResult {
  seconds: number;
  completed: number;
  /** Percentiles of the answers' latency, ms (autocannon's per-request times, unrounded). */
  latencyMs: { p50: number; p99: number };
  bodies: string[];
  failures: number;
  firstFailure?: string;
}

export function runLoad(load: Load): Promise<LoadResult> {
  let next = 0;
  let completed = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const bodies: string[] = [];
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // autocannon notices the end on its one-second ticker; the last answer is the end.
    let last = started;
    const instance = autocannon(
      {
        url: load.url,
        connections: load.connections,
        pipelining: 1,
        amount: load.amount,
        timeout: 30,
        requests: [
          {
            method: load.method,
            setupRequest: (request: autocannon.Request) => {
              const variant = load.variants[next++ % load.variants.length];
              request.headers = { ...load.headers, ...variant.headers };
              if (variant.body !== undefined) request.body = variant.body;
              return request;
            },
            onResponse: (status: number, body: string) => {
              last = process.hrtime.bigint();
              completed += 1;
              if (status !== 200 || !body.includes(load.expect)) {
                failures += 1;
                firstFailure ??= `${status} ${body.slice(0, 300)}`;
              } else if (load.collect) bodies.push(body);
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = Number(last - started) / 1e9;
        const transport = result.errors + result.timeouts;
        if (transport > 0) firstFailure ??= `${transport} connection errors or timeouts`;
        resolve({
          seconds,
          completed,
          latencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
          bodies,
          failures: failures + transport,
          firstFailure,
        });
      },
    );
    instance.on('error', reject);
    // autocannon's own histogram keeps whole milliseconds; its event carries the exact time.
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
      latencies.push(responseTimeMs);
    });
  });
}

/** The nearest-rank percentile `q` (0 to 1) of `values`, NaN when there are none. */
function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

if (require.main === module) {
  process.on('message', (message: { id: number; load: Load }) => {
    runLoad(message.load).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) => process.send!({ id: message.id, error: String(error) }),
    );
  });
}
