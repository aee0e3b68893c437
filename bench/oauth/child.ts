/**
 * Child processes of the harness: every server and the load generator run in a process of
 * their own. A child started with `fork` speaks a tiny request/answer protocol over Node's IPC
 * channel ({id, ...} out, {id, result | error} back); the servers announce themselves with one
 * {ready: {...}} message, or (ours, dist/main.js) with their usual "listening … (port N)" line.
 */
import { ChildProcess, fork, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export class Child {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();
  private exited: Error | null = null;

  constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    proc.on('message', (message: { id?: number; result?: unknown; error?: string }) => {
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error !== undefined) waiter.reject(new Error(`${name}: ${message.error}`));
      else waiter.resolve(message.result);
    });
    proc.once('exit', (code, signal) => {
      this.exited = new Error(`${name} exited (${code ?? signal})`);
      for (const waiter of this.pending.values()) waiter.reject(this.exited);
      this.pending.clear();
    });
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** Sends one request over IPC and waits for its answer. */
  call<T>(request: object): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      this.proc.send({ id, ...request });
    });
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.kill('SIGTERM');
    await gone;
  }
}

/**
 * A TypeScript script of bench/ in its own process with `node` (BENCH_NODE for the servers),
 * resolving with the payload of its {ready} message.
 */
export function forkScript<T>(
  name: string,
  script: string,
  node: string,
  env: Record<string, string>,
): Promise<{ child: Child; ready: T }> {
  const proc = fork(script, [], {
    execPath: node,
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const child = new Child(name, proc);
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${name} exited with ${code} before ready`)));
    proc.on('message', (message: { ready?: T }) => {
      if (message.ready !== undefined) resolve({ child, ready: message.ready });
    });
  });
}

/** A plain program (ours: dist/main.js) whose stderr names the port it listens on. */
export function spawnServer(
  name: string,
  node: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ child: Child; port: number }> {
  // stdout (the access log, when LOG_LEVEL keeps it) goes to /dev/null, as for the peers.
  const proc = spawn(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const child = new Child(name, proc);
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
    createInterface({ input: proc.stderr }).on('line', (line) => {
      const port = /\(port (\d+)\)/.exec(line)?.[1];
      if (port) resolve({ child, port: Number(port) });
      else process.stderr.write(`[${name}] ${line}\n`);
    });
  });
}
