/**
 * A correct password sign-in while another address bursts wrong passwords, against the same
 * sign-in with no burst, measured side by side in one run (docs/security.md, "Password sign-in").
 *
 *   npm run bench:login      (builds first; DATABASE_URL's server, REDIS_URL or a private redis)
 *   BENCH_ROUNDS=5 BENCH_BURST=150 npm run bench:login
 *
 * The built service (`node dist/main.js`, production settings, so the DEFAULT scrypt cost
 * N = 2^15 and the default hashing queue) runs on its own database `idsvc_login_bench`
 * (re-created, migrated, one account made through the CLI). Each round times one quiet correct
 * sign-in (POST /api/console/session), then fires BENCH_BURST simultaneous wrong passwords for
 * that account from a fresh attacker address and, at the same moment, one correct sign-in from
 * the owner's address, and times that one. The figures are the medians over the rounds.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { RedisServer } from '../test/support/redis-server';
import { benchDatabaseUrl, recreateDatabase } from './bench-database';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BURST = Number(process.env.BENCH_BURST ?? 150);
const ROOT = join(__dirname, '..');
const ACCOUNT = 'owner';
const PASSWORD = 'correct horse battery staple';
const OWNER = '198.51.100.7';

async function prepare(redisUrl: string): Promise<NodeJS.ProcessEnv> {
  const databaseUrl = benchDatabaseUrl(process.env.BENCH_LOGIN_DATABASE_URL, 'idsvc_login_bench');
  await recreateDatabase(databaseUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PUBLIC_BASE_URL: 'https://bench.example',
    SESSION_SECRET: randomUUID() + randomUUID(),
    SIGNING_KEYS_SECRET: randomUUID() + randomUUID(),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_KEY_PREFIX: `idsvc-bench:${randomUUID()}:`,
    // The addresses come from X-Forwarded-For, as behind one proxy.
    TRUST_PROXY_HOPS: '1',
  };
  delete env.PASSWORD_HASH_COST; // the default cost, whatever the caller's environment says
  delete env.PASSWORD_HASH_CONCURRENCY;
  delete env.PASSWORD_HASH_QUEUE;
  const cli = (...args: string[]): void => {
    execFileSync(process.execPath, ['dist/cli/main.js', ...args], { cwd: ROOT, env });
  };
  cli('migrate');
  cli(
    'user',
    'create',
    '--username',
    ACCOUNT,
    '--email',
    'owner@example.org',
    '--password',
    PASSWORD,
  );
  return env;
}

function startService(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
    createInterface({ input: child.stderr }).on('line', (line) => {
      const port = /\(port (\d+)\)/.exec(line)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
  });
}

async function signIn(url: string, address: string, password: string): Promise<number> {
  const res = await fetch(`${url}/api/console/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ login: ACCOUNT, password }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds `signIn` took; anything but 200 aborts the benchmark. */
async function timedSignIn(url: string): Promise<number> {
  const started = performance.now();
  const status = await signIn(url, OWNER, PASSWORD);
  if (status !== 200) throw new Error(`the owner's sign-in answered ${status}`);
  return performance.now() - started;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main(): Promise<void> {
  const redis = process.env.REDIS_URL ? undefined : await RedisServer.start();
  const env = await prepare(process.env.REDIS_URL ?? redis!.url);
  const service = await startService(env);
  try {
    await timedSignIn(service.url); // warm-up: connections, the JIT
    const quiet: number[] = [];
    const underBurst: number[] = [];
    const answers: Record<number, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      quiet.push(await timedSignIn(service.url));
      const attacker = `203.0.113.${round + 1}`;
      const burst = Array.from({ length: BURST }, (_, i) =>
        signIn(service.url, attacker, `wrong-${round}-${i}`),
      );
      underBurst.push(await timedSignIn(service.url));
      for (const status of await Promise.all(burst)) answers[status] = (answers[status] ?? 0) + 1;
    }
    const q = median(quiet);
    const b = median(underBurst);
    console.log(
      `login burst: ${ROUNDS} rounds, ${BURST} wrong passwords per burst, scrypt N = 2^15`,
    );
    console.log(
      `  quiet correct sign-in        median ${q.toFixed(0)} ms  (${quiet.map((v) => v.toFixed(0)).join(', ')})`,
    );
    console.log(
      `  correct sign-in under burst  median ${b.toFixed(0)} ms  (${underBurst.map((v) => v.toFixed(0)).join(', ')})`,
    );
    console.log(`  ratio under burst / quiet    ${(b / q).toFixed(2)}`);
    console.log(`  burst answers by status      ${JSON.stringify(answers)}`);
    console.log(
      `  load average                 ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    service.child.kill('SIGTERM');
    await redis?.kill();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
