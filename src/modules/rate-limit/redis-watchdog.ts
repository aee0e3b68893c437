import type Redis from 'ioredis';
import type { Readable } from 'node:stream';

/**
 * Tells a hung Redis from a slow one (docs/adr/0002). There is no per-command timeout: a reply
 * that is late because this process or Redis was starved of CPU is still a reply, and treating
 * it as an outage is how two instances admitted 945 of 1000 requests against a limit of 600.
 *
 * The connection is declared stalled only when commands are outstanding and not a byte has
 * arrived from Redis for `stallMs`. Bytes, not completed commands: with auto-pipelining a
 * command resolves only once its whole pipeline is answered, which under load takes many reads
 * (a burst of 500 EVALs is ~450 kB to send and answer). Before acting, the check waits one turn
 * of the event loop (setImmediate runs after the poll phase), so replies that were already in
 * the socket while the loop was busy are read first. A stalled connection is dropped: ioredis then rejects every
 * outstanding command (the caller falls back) and reconnects by itself.
 */
export class RedisWatchdog {
  private outstanding = 0;
  /** now() of the last bytes or reply from Redis, or of the moment commands started waiting. */
  private lastProgressAt = 0;
  private timer?: NodeJS.Timeout;
  /** Sockets whose 'data' events already count as progress (ioredis opens one per connect). */
  private readonly followed = new WeakSet<Readable>();

  constructor(
    private readonly redis: Redis,
    private readonly stallMs: number,
    private readonly onStall: () => void,
    /** Monotonic milliseconds; tests pass their own. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(): void {
    this.follow();
    this.redis.on('connect', () => this.follow());
    this.timer = setInterval(() => this.check(), Math.max(50, Math.floor(this.stallMs / 5)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Awaits a command sent on the watched connection, counting it as outstanding meanwhile. */
  async watch<T>(command: Promise<T>): Promise<T> {
    if (this.outstanding === 0) this.lastProgressAt = this.now();
    this.outstanding += 1;
    try {
      const result = await command;
      this.lastProgressAt = this.now();
      return result;
    } catch (error) {
      // An error reply (OOM, NOSCRIPT…) is a reply too: the connection is alive.
      if (error instanceof Error && error.name === 'ReplyError') {
        this.lastProgressAt = this.now();
      }
      throw error;
    } finally {
      this.outstanding -= 1;
    }
  }

  private follow(): void {
    const stream = this.redis.stream as Readable | undefined;
    if (!stream || this.followed.has(stream)) return;
    this.followed.add(stream);
    stream.on('data', () => (this.lastProgressAt = this.now()));
  }

  private check(): void {
    if (!this.stalled()) return;
    setImmediate(() => {
      if (!this.stalled()) return;
      this.onStall();
      // disconnect(true) ends the socket and destroys it after disconnectTimeout; the 'close'
      // handler rejects the outstanding commands and schedules the reconnect.
      this.redis.disconnect(true);
    });
  }

  private stalled(): boolean {
    return (
      this.outstanding > 0 &&
      this.redis.status === 'ready' &&
      this.now() - this.lastProgressAt >= this.stallMs
    );
  }
}
