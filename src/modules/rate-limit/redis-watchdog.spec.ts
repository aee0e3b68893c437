import type Redis from 'ioredis';
import { EventEmitter } from 'node:events';
import { RedisWatchdog } from './redis-watchdog';

const STALL_MS = 1000; // checked every 200 ms

/** A watchdog over a fake connection, on fake timers and a clock the test moves. */
function setUp(status = 'ready') {
  const clock = { ms: 0 };
  const redis = Object.assign(new EventEmitter(), {
    status,
    disconnect: jest.fn(),
    stream: new EventEmitter(), // the socket: 'data' when bytes arrive
  });
  // Like ioredis: a dropped connection is no longer ready.
  redis.disconnect.mockImplementation(() => (redis.status = 'reconnecting'));
  const onStall = jest.fn();
  const watchdog = new RedisWatchdog(redis as unknown as Redis, STALL_MS, onStall, () => clock.ms);
  watchdog.start();
  /** Time passes normally: the clock moves and due timers run. */
  const elapse = async (ms: number): Promise<void> => {
    for (let step = 0; step < ms; step += 100) {
      clock.ms += 100;
      await jest.advanceTimersByTimeAsync(100);
    }
  };
  return { redis, onStall, watchdog, clock, elapse };
}

/** A command whose reply the test delivers. */
function command(): { promise: Promise<string>; reply: () => void } {
  let reply!: () => void;
  const promise = new Promise<string>((resolve) => (reply = () => resolve('OK')));
  return { promise, reply };
}

describe('RedisWatchdog', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('drops the connection when commands wait and no reply at all comes for the stall time', async () => {
    const { redis, onStall, watchdog, elapse } = setUp();
    void watchdog.watch(command().promise);
    await elapse(STALL_MS - 100);
    expect(onStall).not.toHaveBeenCalled();
    await elapse(400);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(redis.disconnect).toHaveBeenCalledWith(true);
    watchdog.stop();
  });

  it('waits for a slow connection as long as replies keep coming', async () => {
    const { onStall, watchdog, elapse } = setUp();
    for (let i = 0; i < 10; i += 1) {
      const next = command();
      void watchdog.watch(next.promise);
      await elapse(STALL_MS * 0.8); // each reply takes 0.8 s
      next.reply();
    }
    expect(onStall).not.toHaveBeenCalled();
    watchdog.stop();
  });

  it('counts any bytes from Redis as progress, as in a long pipeline answered in many reads', async () => {
    const { onStall, watchdog, elapse, redis } = setUp();
    void watchdog.watch(command().promise); // resolves only when the whole pipeline is answered
    for (let i = 0; i < 5; i += 1) {
      await elapse(STALL_MS * 0.8);
      redis.stream.emit('data', Buffer.from(':1\r\n'));
    }
    expect(onStall).not.toHaveBeenCalled();
    await elapse(STALL_MS * 1.5); // then nothing more arrives
    expect(onStall).toHaveBeenCalledTimes(1);
    watchdog.stop();
  });

  it('reads replies that arrived while the event loop was busy before declaring a stall', async () => {
    const { onStall, watchdog, clock } = setUp();
    const late = command();
    void watchdog.watch(late.promise);
    clock.ms += STALL_MS * 3; // the loop was blocked for 3 s: no timer ran, no socket was read
    jest.advanceTimersToNextTimer(); // the late check finds no reply for 3 s...
    late.reply(); // ...but the poll phase that follows reads the reply waiting in the socket
    await late.promise;
    jest.runOnlyPendingTimers(); // the re-check deferred with setImmediate
    expect(onStall).not.toHaveBeenCalled();
    watchdog.stop();
  });

  it('gives Redis several turns of a starved event loop before declaring a stall', async () => {
    const { onStall, watchdog, clock, redis } = setUp();
    const late = command();
    void watchdog.watch(late.promise);
    /** One check, seconds after the previous one (the process had no CPU), and its re-check. */
    const starvedTurn = (): void => {
      clock.ms += STALL_MS * 3;
      jest.advanceTimersToNextTimer();
      jest.runOnlyPendingTimers();
    };
    for (let turn = 0; turn < 4; turn += 1) starvedTurn(); // 12 s of silence, but only 4 turns
    expect(onStall).not.toHaveBeenCalled();
    late.reply(); // the commands were finally sent and answered
    await late.promise;
    starvedTurn();
    expect(onStall).not.toHaveBeenCalled();

    // A Redis that really stays silent is still caught, after enough turns.
    void watchdog.watch(command().promise);
    for (let turn = 0; turn < 6; turn += 1) starvedTurn();
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(redis.disconnect).toHaveBeenCalledWith(true);
    watchdog.stop();
  });

  it('leaves a connection that is not ready to ioredis, which rejects its commands itself', async () => {
    const { onStall, watchdog, elapse } = setUp('reconnecting');
    void watchdog.watch(command().promise);
    await elapse(STALL_MS * 3);
    expect(onStall).not.toHaveBeenCalled();
    watchdog.stop();
  });
});
