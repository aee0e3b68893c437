import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import type { EventPartitionsService, PartitionRun } from './event-partitions.service';
import { PurgeScheduler } from './purge.scheduler';
import type { PurgeResult, PurgeService } from './purge.service';

const DONE: PurgeResult = {
  ran: true,
  deleted: {
    codes: 0,
    sessions: 0,
    spentRequests: 0,
    pushedRequests: 0,
    deviceCodes: 0,
    clientAssertions: 0,
    dpopProofs: 0,
    tokens: 0,
    passkeyCeremonies: 0,
    passkeyConfirmations: 0,
    signingKeys: 0,
    oneTimeCodes: 0,
    signIns: 0,
    backchannelLogouts: 0,
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

  const NO_CHANGE: PartitionRun = { created: [], dropped: [], expiredInDefault: 0 };
  let partitionRuns: jest.Mock;
  beforeEach(() => {
    partitionRuns = jest.fn().mockResolvedValue(NO_CHANGE);
  });

  function scheduler(intervalSeconds: number, runOnce: jest.Mock) {
    const config = { purgeIntervalSeconds: intervalSeconds } as AppConfig;
    return new PurgeScheduler(
      config,
      { runOnce } as unknown as PurgeService,
      { runOnce: partitionRuns } as unknown as EventPartitionsService,
    );
  }

  it('runs within the first minute after boot, then every interval, and goes on after a failure', async () => {
    const runOnce = jest
      .fn()
      .mockRejectedValueOnce(new Error('connection refused'))
      .mockResolvedValue(DONE);
    const job = scheduler(600, runOnce);
    await job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runOnce).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
    await jest.advanceTimersByTimeAsync(600_000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(600_000);
    expect(runOnce).toHaveBeenCalledTimes(3);
    await job.beforeApplicationShutdown();
  });

  it('keeps the events partitions at boot, awaited, and after every purge, even a failed one', async () => {
    partitionRuns.mockRejectedValueOnce(new Error('lock timeout'));
    const runOnce = jest.fn().mockRejectedValueOnce(new Error('connection refused'));
    const job = scheduler(600, runOnce);
    await job.onApplicationBootstrap();
    expect(partitionRuns).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('lock timeout'));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runOnce).toHaveBeenCalledTimes(1);
    expect(partitionRuns).toHaveBeenCalledTimes(2);
    await job.beforeApplicationShutdown();
  });

  it('keeps the events partitions at boot even with the scheduled jobs off', async () => {
    const runOnce = jest.fn();
    await scheduler(0, runOnce).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(partitionRuns).toHaveBeenCalledTimes(1);
    expect(runOnce).not.toHaveBeenCalled();
  });

  it('stops on shutdown: no run after it', async () => {
    const runOnce = jest.fn().mockResolvedValue(DONE);
    const job = scheduler(10, runOnce);
    await job.onApplicationBootstrap();
    await job.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runOnce).not.toHaveBeenCalled();
  });

  it('never runs with an interval of 0', async () => {
    const runOnce = jest.fn().mockResolvedValue(DONE);
    await scheduler(0, runOnce).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(runOnce).not.toHaveBeenCalled();
  });
});
