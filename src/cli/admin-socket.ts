import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, Server } from 'node:net';
import { join, resolve } from 'node:path';
import { AppConfig } from '../config/app-config';
import { OWNER_ONLY_SOCKET } from '../database/data-dir-lock';
import { AdminCommands } from './admin-commands';
import { CliResult, runCommand } from './run-command';

const SOCKET_NAME = 'admin.sock';
const MAX_REQUEST_BYTES = 64 * 1024;

export function adminSocketPath(dataDir: string): string {
  return join(resolve(dataDir), SOCKET_NAME);
}

/**
 * The embedded database belongs to one process at a time, so while the service runs on it
 * the CLI hands its command line to the service through this unix socket (chmod 0600 right
 * after bind, whatever the umask, inside the data directory that embedded-postgres.ts keeps at
 * 0700: only the operator's account reaches it). One JSON line each way.
 */
@Injectable()
export class AdminSocketServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AdminSocket');
  private server?: Server;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly commands: AdminCommands,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const dataDir = this.config.embeddedDataDir;
    if (!this.config.usesEmbeddedDatabase || dataDir.startsWith('memory://')) return;
    const path = adminSocketPath(dataDir);
    rmSync(path, { force: true }); // left over from a crash; we hold the directory lock
    this.server = createServer((socket) => {
      let buffer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        buffer += chunk;
        if (buffer.length > MAX_REQUEST_BYTES) return socket.destroy();
        const newline = buffer.indexOf('\n');
        if (newline < 0) return;
        void this.answer(buffer.slice(0, newline)).then((result) =>
          socket.end(JSON.stringify(result) + '\n'),
        );
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((done, fail) => this.server!.once('error', fail).listen(path, done));
    // bind() creates the file under the umask; until this chmod only the owner can reach it
    // anyway, the data directory being 0700 (data-dir-lock.ts).
    chmodSync(path, OWNER_ONLY_SOCKET);
    this.logger.log(`Admin socket for the CLI at ${path}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }

  private async answer(line: string): Promise<CliResult> {
    let argv: unknown;
    try {
      argv = (JSON.parse(line) as { argv?: unknown }).argv;
    } catch {
      argv = undefined;
    }
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
      return { exitCode: 2, stdout: '', stderr: 'error: malformed admin request\n' };
    }
    return runCommand(argv, () => Promise.resolve(this.commands));
  }
}

/** Sends a command line to the running service; rejects when nothing answers. */
export function sendToAdminSocket(dataDir: string, argv: string[]): Promise<CliResult> {
  return new Promise((done, fail) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let reply = '';
    socket.setEncoding('utf8');
    socket.setTimeout(120_000, () =>
      socket.destroy(new Error('the service did not answer in time')),
    );
    socket.on('connect', () => socket.write(JSON.stringify({ argv }) + '\n'));
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', fail);
    socket.on('end', () => {
      try {
        done(JSON.parse(reply) as CliResult);
      } catch {
        fail(new Error('the service sent a malformed reply'));
      }
    });
  });
}
