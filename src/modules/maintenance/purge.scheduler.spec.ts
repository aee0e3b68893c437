import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { PurgeScheduler } from './purge.scheduler';
import type { PurgeResult, PurgeService } from './purge.service';

const DONE: PurgeResult = {
  ran: true,
  deleted: {
    codes: 0,
    sessions: 0,
    spentRequests: 0,
    tokens: 0,
    passkeyCeremonies: 0,
    passkeyConfirmations: 0,
    signingKeys: 0,
    oneTimeCodes: 0,
    signIns: 0,
  },
};

describe('PurgeScheduler', () => {
  let logError: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  function scheduler(intervalSeconds: number, runOnce: jest.Mock) {
    const config = { purgeIntervalSeconds: intervalSeconds } as AppConfig;
    return new PurgeScheduler(config, { runOnce } as unknown as PurgeService);
  }

  it('runs within the first minute after boot, then every interval, and goes on after a failure', async () => {
    const runOnce = jest
      .fn()
      .mockRejectedValueOnce(new Error('connection refused'))
      .mockResolvedValue(DONE);
    const job = scheduler(600, runOnce);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runOnce).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
    await jest.advanceTimersByTimeAsync(600_000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(600_000);
    expect(runOnce).toHaveBeenCalledTimes(3);
    await job.beforeApplicationShutdown();
  });

  it('stops on shutdown: no run after it', async () => {
    const runOnce = jest.fn().mockResolvedValue(DONE);
    const job = scheduler(10, runOnce);
    job.onApplicationBootstrap();
    await job.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runOnce).not.toHaveBeenCalled();
  });

  it('never runs with an interval of 0', async () => {
    const runOnce = jest.fn().mockResolvedValue(DONE);
    scheduler(0, runOnce).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runOnce).not.toHaveBeenCalled();
  });
});
