import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** A private, non-persistent redis-server child process on a free loopback port. */
export class RedisServer {
  private child?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(port?: number): Promise<RedisServer> {
    const server = new RedisServer(port ?? (await freePort()));
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Starts the process (again) on the same port and waits until it accepts connections. */
  async restart(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.child = child;
    // A missing binary is a failure of the test, never a reason to skip it (in CI too).
    let spawnError: Error | undefined;
    child.once('error', (error) => (spawnError = error));
    const deadline = Date.now() + 5_000;
    while (!(await accepts(this.port))) {
      if (spawnError) throw new Error(`redis-server could not be started: ${spawnError.message}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGSTOP: the port stays open but nothing answers (an unreachable, hung Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** SIGKILL and wait for the exit: connections are reset, the port refuses. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }
}
