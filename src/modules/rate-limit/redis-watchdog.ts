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
 * (a burst of 500 EVALs is ~450 kB to send and answer).
 *
 * Silence is also counted in turns of this process's event loop, not only in wall-clock time: a
 * stall needs STALL_TURNS checks in a row, each made after a poll phase (setImmediate) in which
 * no byte arrived. A process starved of CPU may run one check seconds after the last one, with
 * its own commands still unsent in the auto-pipeline; the wall clock alone would call that a
 * stall (700 of 1000 admitted under heavy load), while the turns give Redis a chance to answer.
 * A stalled connection is dropped: ioredis then rejects every outstanding command (the caller
 * falls back) and reconnects by itself.
 */
/** Checks in a row without a byte from Redis before a stall (one check per stallMs / 5). */
const STALL_TURNS = 5;

export class RedisWatchdog {
  private outstanding = 0;
  /** Counts every sign of life; a check compares it with the value the previous check saw. */
  private progress = 0;
  private progressAtLastCheck = 0;
  private silentTurns = 0;
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
    const interval = Math.max(50, Math.floor(this.stallMs / STALL_TURNS));
    this.timer = setInterval(() => this.check(), interval);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Awaits a command sent on the watched connection, counting it as outstanding meanwhile. */
  async watch<T>(command: Promise<T>): Promise<T> {
    if (this.outstanding === 0) this.markProgress(); // the wait starts now
    this.outstanding += 1;
    try {
      const result = await command;
      this.markProgress();
      return result;
    } catch (error) {
      // An error reply (OOM, NOSCRIPT…) is a reply too: the connection is alive.
      if (error instanceof Error && error.name === 'ReplyError') this.markProgress();
      throw error;
    } finally {
      this.outstanding -= 1;
    }
  }

  private follow(): void {
    const stream = this.redis.stream as Readable | undefined;
    if (!stream || this.followed.has(stream)) return;
    this.followed.add(stream);
    stream.on('data', () => this.markProgress());
  }

  private markProgress(): void {
    this.lastProgressAt = this.now();
    this.progress += 1;
  }

  private check(): void {
    if (this.outstanding === 0 || this.redis.status !== 'ready') {
      this.silentTurns = 0;
      return;
    }
    // After this turn's poll phase, so replies already waiting in the socket are read first.
    setImmediate(() => {
      if (this.progress !== this.progressAtLastCheck) {
        this.progressAtLastCheck = this.progress;
        this.silentTurns = 0;
        return;
      }
      this.silentTurns += 1;
      if (this.silentTurns < STALL_TURNS || !this.stalled()) return;
      this.silentTurns = 0;
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
