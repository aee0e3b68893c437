/**
 * DPoP against bearer tokens (docs/performance/oauth.md, "DPoP against bearer tokens"): this
 * service in a process of its own (the `ours` target of bench:oauth), one load generator in
 * another, and the same operations made as a bearer client and as a DPoP client (RFC 9449: an
 * ES256 key, a fresh proof per request carrying the server's current nonce), side by side in one
 * run: per round and operation, both modes back to back, in alternating order (bearer first,
 * then DPoP first, …) after a warm-up. Printed: medians over the rounds of ops/s, p50 and p99
 * latency, server and PostgreSQL CPU per operation, and the median of per-round ratios.
 *
 *   npm run bench:dpop
 *   BENCH_NODE=$(bash scripts/node-lts.sh) npm run bench:dpop      server on the current LTS
 *   BENCH_OPS=3000 BENCH_ROUNDS=4 BENCH_WARMUP=2000 BENCH_CONCURRENCY=16 BENCH_LOG_LEVEL=info
 *   BENCH_DPOP_DATABASE_URL (else DATABASE_URL's server, database idsvc_dpop_bench, re-created)
 *
 * The proofs are made before their phase, untimed, as the codes are: the figure is the server's
 * cost of checking a proof (signature, claims, nonce, the jti's insert), not the client's of
 * signing one. A phase must end within DPOP_PROOF_MAX_AGE_SECONDS of its proofs' iat.
 */
import { execFileSync, fork } from 'node:child_process';
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchDatabaseUrl } from '../bench-database';
import { Child } from './child';
import { machineJiffies, PostgresCpu, processesCpuUs } from './cpu';
import type { LoadResult } from './generator';
import { OURS_PUBLIC_BASE_URL, ours, type OursTarget } from './ours';
import { median } from './report';
import { REDIRECT_URI, VERIFIER, type PhaseLoad } from './target';

const env = process.env;
const OPS = Number(env.BENCH_OPS ?? 3000);
const WARMUP = Number(env.BENCH_WARMUP ?? 2000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 16);
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const NODE = env.BENCH_NODE ?? process.execPath;
const DATABASE = benchDatabaseUrl(env.BENCH_DPOP_DATABASE_URL, 'idsvc_dpop_bench');
/** Access tokens made once per mode for the userinfo phases (each used by many requests). */
const USERINFO_TOKENS = 100;

type Mode = 'bearer' | 'dpop';
type Op = 'exchange' | 'refresh' | 'userinfo';
const OPS_IN_ORDER: { op: Op; label: string }[] = [
  { op: 'exchange', label: 'code → token exchange' },
  { op: 'refresh', label: 'refresh (rotation)' },
  { op: 'userinfo', label: 'userinfo (GET)' },
];
const MODE_NAMES: Record<Mode, string> = { bearer: 'bearer', dpop: 'DPoP (ES256, nonce)' };

const TOKEN_PATH = '/api/oauth2/token';
const USERINFO_PATH = '/api/oauth2/userinfo';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The client's DPoP key: one ES256 key pair, the public half as the proofs' `jwk` header. */
class ProofKey {
  private readonly privateKey: KeyObject;
  private readonly header: string;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
    this.header = b64(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } }));
  }

  /** A proof for `method` at `path` of the service (RFC 9449 section 4.2), a fresh jti. */
  proof(method: string, path: string, nonce: string | undefined, accessToken?: string): string {
    const claims = {
      jti: randomUUID(),
      htm: method,
      htu: `${OURS_PUBLIC_BASE_URL}${path}`,
      iat: Math.floor(Date.now() / 1000),
      ...(nonce === undefined ? {} : { nonce }),
      ...(accessToken === undefined
        ? {}
        : { ath: createHash('sha256').update(accessToken, 'ascii').digest('base64url') }),
    };
    const input = `${this.header}.${b64(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }
}

const b64 = (text: string): string => Buffer.from(text).toString('base64url');

/** The phases of one mode against the server: the same requests, with or without proofs. */
class ModePhases {
  private refreshTokens: string[] = [];
  private accessTokens?: Promise<string[]>;

  constructor(
    private readonly server: OursTarget,
    private readonly key: ProofKey | null,
  ) {}

  /** The server's current nonce, as a client learns it: from a use_dpop_nonce answer. */
  private async nonce(): Promise<string> {
    const res = await fetch(`${this.server.base}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { ...FORM, dpop: this.key!.proof('POST', TOKEN_PATH, undefined) },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: 'x',
      }),
    });
    const nonce = res.headers.get('dpop-nonce');
    if (res.status !== 400 || nonce === null)
      throw new Error(`expected use_dpop_nonce: ${res.status} ${await res.text()}`);
    return nonce;
  }

  /** A proof per request body for the token endpoint (none as a bearer client). */
  private async tokenVariants(bodies: string[]): Promise<PhaseLoad['variants']> {
    if (!this.key) return bodies.map((body) => ({ body }));
    const nonce = await this.nonce();
    return bodies.map((body) => ({
      body,
      headers: { dpop: this.key!.proof('POST', TOKEN_PATH, nonce) },
    }));
  }

  async prepare(op: Op, n: number): Promise<PhaseLoad> {
    const answer = this.key ? '"token_type":"DPoP"' : '"token_type":"bearer"';
    switch (op) {
      case 'exchange':
        return {
          ...tokenLoad(
            this.server,
            await this.tokenVariants(exchanges(this.server, await this.server.makeCodes(n))),
          ),
          expect: answer,
          collect: true,
        };
      case 'refresh': {
        if (this.refreshTokens.length < n) throw new Error('refresh phase without an exchange');
        const bodies = this.refreshTokens.map((rt) =>
          new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: rt,
            client_id: this.server.clientId,
          }).toString(),
        );
        this.refreshTokens = [];
        return {
          ...tokenLoad(this.server, await this.tokenVariants(bodies)),
          expect: answer,
          collect: false,
        };
      }
      case 'userinfo': {
        this.accessTokens ??= this.madeAccessTokens();
        const tokens = await this.accessTokens;
        const nonce = this.key ? await this.nonce() : undefined;
        // As a DPoP client: a proof per request (a proof is used once), the tokens in turn.
        const variants = this.key
          ? Array.from({ length: n }, (_, i) => {
              const token = tokens[i % tokens.length];
              return {
                headers: {
                  authorization: `DPoP ${token}`,
                  dpop: this.key!.proof('GET', USERINFO_PATH, nonce, token),
                },
              };
            })
          : tokens.map((token) => ({ headers: { authorization: `Bearer ${token}` } }));
        return {
          url: `${this.server.base}${USERINFO_PATH}`,
          method: 'GET',
          headers: {},
          variants,
          amount: n,
          expect: '"username"',
          collect: false,
        };
      }
    }
  }

  answered(op: Op, bodies: string[]): void {
    if (op === 'exchange')
      this.refreshTokens = bodies.map(
        (b) => (JSON.parse(b) as { refresh_token: string }).refresh_token,
      );
  }

  /** Untimed: access tokens of this mode (bound to the key as a DPoP client), one at a time. */
  private async madeAccessTokens(): Promise<string[]> {
    const tokens: string[] = [];
    const bodies = exchanges(this.server, await this.server.makeCodes(USERINFO_TOKENS));
    for (const { body, headers } of await this.tokenVariants(bodies)) {
      const res = await fetch(`${this.server.base}${TOKEN_PATH}`, {
        method: 'POST',
        headers: { ...FORM, ...headers },
        body,
      });
      const answer = (await res.json()) as { access_token?: string };
      if (res.status !== 200 || !answer.access_token)
        throw new Error(`token: ${res.status} ${JSON.stringify(answer)}`);
      tokens.push(answer.access_token);
    }
    return tokens;
  }
}

function exchanges(server: OursTarget, codes: string[]): string[] {
  return codes.map((code) =>
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: server.clientId,
      code_verifier: VERIFIER,
    }).toString(),
  );
}

function tokenLoad(
  server: OursTarget,
  variants: PhaseLoad['variants'],
): Omit<PhaseLoad, 'expect' | 'collect'> {
  return {
    url: `${server.base}${TOKEN_PATH}`,
    method: 'POST',
    headers: FORM,
    variants,
    amount: variants.length,
  };
}

interface Sample {
  perSecond: number;
  p50: number;
  p99: number;
  serverUs: number | null;
  postgresUs: number;
}

async function phase(
  generator: Child,
  postgres: PostgresCpu,
  server: OursTarget,
  phases: ModePhases,
  op: Op,
  n: number,
): Promise<Sample> {
  const load = await phases.prepare(op, n);
  const pgBefore = await postgres.sample(server.database!);
  const pids = server.children.map((c) => c.pid);
  const before = processesCpuUs(pids);
  const result = await generator.call<LoadResult>({ load: { ...load, connections: CONCURRENCY } });
  const after = processesCpuUs(pids);
  const pgAfter = await postgres.sample(server.database!);
  if (result.failures > 0)
    throw new Error(`${op}: ${result.failures} failed, first: ${result.firstFailure}`);
  phases.answered(op, result.bodies);
  return {
    perSecond: result.completed / result.seconds,
    p50: result.latencyMs.p50,
    p99: result.latencyMs.p99,
    serverUs: before === null || after === null ? null : (after - before) / result.completed,
    postgresUs: PostgresCpu.spent(pgBefore, pgAfter).us / result.completed,
  };
}

type Samples = Record<Mode, Record<Op, Sample[]>>;

function table(samples: Samples): string {
  const rows: string[][] = [
    [
      'operation',
      'mode',
      'ops/s',
      'DPoP ÷ bearer',
      'p50 ms',
      'p99 ms',
      'server CPU µs/op',
      'PostgreSQL CPU µs/op',
    ],
  ];
  const med = (list: Sample[], pick: (s: Sample) => number | null): number | null => {
    const values = list.map(pick).filter((v): v is number => v !== null);
    return values.length ? median(values) : null;
  };
  const fmt = (v: number | null, digits = 0) => (v === null ? '–' : v.toFixed(digits));
  for (const { op, label } of OPS_IN_ORDER)
    for (const mode of ['bearer', 'dpop'] as Mode[]) {
      const mine = samples[mode][op];
      const bearer = samples.bearer[op];
      // The ratio of each round's adjacent measurements, then their median.
      const ratio =
        mode === 'bearer'
          ? ''
          : `${median(mine.map((s, i) => s.perSecond / bearer[i].perSecond)).toFixed(2)}×`;
      rows.push([
        label,
        MODE_NAMES[mode],
        fmt(med(mine, (s) => s.perSecond)),
        ratio,
        fmt(
          med(mine, (s) => s.p50),
          2,
        ),
        fmt(
          med(mine, (s) => s.p99),
          2,
        ),
        fmt(med(mine, (s) => s.serverUs)),
        fmt(med(mine, (s) => s.postgresUs)),
      ]);
    }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (c < 2 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

async function main(): Promise<void> {
  const serverNode = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `DPoP against bearer tokens: ${ROUNDS} rounds × ${OPS} operations per mode and operation, ` +
      `${WARMUP} warm-up, ${CONCURRENCY} connections; server on Node ${serverNode}, generator on ` +
      `Node ${process.version}; log level ${LOG_LEVEL}; Redis ${env.REDIS_URL ? 'REDIS_URL' : 'none (in-process limiter)'}; ` +
      `load average at start ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
  );
  const generator = new Child(
    'load generator',
    fork(join(__dirname, 'generator.ts'), [], {
      execArgv: ['-r', 'ts-node/register/transpile-only'],
    }),
  );
  const postgres = await PostgresCpu.connect(DATABASE);
  let server: OursTarget | undefined;
  try {
    server = await ours({ node: NODE, databaseUrl: DATABASE, logLevel: LOG_LEVEL });
    const modes: Record<Mode, ModePhases> = {
      bearer: new ModePhases(server, null),
      dpop: new ModePhases(server, new ProofKey()),
    };
    const run = (mode: Mode, op: Op, n: number) =>
      phase(generator, postgres, server!, modes[mode], op, n);
    for (const { op } of OPS_IN_ORDER)
      for (const mode of ['bearer', 'dpop'] as Mode[]) await run(mode, op, WARMUP);
    const samples: Samples = {
      bearer: { exchange: [], refresh: [], userinfo: [] },
      dpop: { exchange: [], refresh: [], userinfo: [] },
    };
    const machineBefore = machineJiffies();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Bearer first, then DPoP first, …: a drifting machine load weighs on both alike.
      const order: Mode[] = round % 2 === 0 ? ['bearer', 'dpop'] : ['dpop', 'bearer'];
      for (const { op } of OPS_IN_ORDER)
        for (const mode of order) samples[mode][op].push(await run(mode, op, OPS));
      process.stderr.write(`round ${round + 1}/${ROUNDS} done (load ${loadavg()[0].toFixed(2)})\n`);
    }
    const machineAfter = machineJiffies();
    const busy =
      (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    console.log(`\n${table(samples)}\n\nops/s per round:`);
    for (const { op, label } of OPS_IN_ORDER)
      for (const mode of ['bearer', 'dpop'] as Mode[])
        console.log(
          `  ${label} · ${MODE_NAMES[mode]}: ${samples[mode][op].map((s) => s.perSecond.toFixed(0)).join(', ')}`,
        );
    console.log(
      `\nmachine CPU busy during the rounds: ${(busy * 100).toFixed(0)} %; load average at end ` +
        `${loadavg()
          .map((v) => v.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await server?.close();
    await postgres.close();
    await generator.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
