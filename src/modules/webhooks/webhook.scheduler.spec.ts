import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import type { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookScheduler } from './webhook.scheduler';

const LEFT_WORK = { served: 1, more: true };
const DONE = { served: 1, more: false };

describe('WebhookScheduler', () => {
  let logError: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    // The first round's offset within the poll interval is random; here it is 0.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  function scheduler(pollMs: number, runRound: jest.Mock) {
    const config = { webhooksPollMs: pollMs } as AppConfig;
    const delivery = { runRound, stop: jest.fn() } as unknown as WebhookDeliveryService;
    return new WebhookScheduler(config, delivery);
  }

  it('starts the next round at once while a round leaves work, then waits the poll interval', async () => {
    const runRound = jest
      .fn()
      .mockResolvedValueOnce(LEFT_WORK)
      .mockResolvedValueOnce(LEFT_WORK)
      .mockResolvedValue(DONE);
    const job = scheduler(1000, runRound);
    job.onApplicationBootstrap();
    // The rounds after one that left work are not held for the interval (a timer of 0 ms).
    await jest.advanceTimersByTimeAsync(10);
    expect(runRound).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(980);
    expect(runRound).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(100);
    expect(runRound).toHaveBeenCalledTimes(4);
    await job.beforeApplicationShutdown();
  });

  it('waits the poll interval after a failed round', async () => {
    const runRound = jest
      .fn()
      .mockRejectedValueOnce(new Error('connection refused'))
      .mockResolvedValue(DONE);
    const job = scheduler(1000, runRound);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(999);
    expect(runRound).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
    await jest.advanceTimersByTimeAsync(1);
    expect(runRound).toHaveBeenCalledTimes(2);
    await job.beforeApplicationShutdown();
  });

  it('stops on shutdown although the last round left work', async () => {
    let finish!: (result: typeof LEFT_WORK) => void;
    const runRound = jest
      .fn()
      .mockReturnValueOnce(new Promise((resolve) => (finish = resolve)))
      .mockResolvedValue(LEFT_WORK);
    const job = scheduler(1000, runRound);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    expect(runRound).toHaveBeenCalledTimes(1);
    const stopped = job.beforeApplicationShutdown();
    finish(LEFT_WORK);
    await stopped;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runRound).toHaveBeenCalledTimes(1);
  });

  it('never runs a round with WEBHOOKS_POLL_MS=0', async () => {
    const runRound = jest.fn().mockResolvedValue(LEFT_WORK);
    scheduler(0, runRound).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runRound).not.toHaveBeenCalled();
  });
});
