import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import type { Started, WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookScheduler } from './webhook.scheduler';

/** A delivery the test ends by hand: `end(true)` = its batch was full. */
function pending(): { delivery: Promise<boolean>; end: (more: boolean) => void } {
  let end!: (more: boolean) => void;
  const delivery = new Promise<boolean>((done) => (end = done));
  return { delivery, end };
}

const started = (deliveries: Promise<boolean>[], full = false): Started => ({ deliveries, full });
const NOTHING = started([]);

describe('WebhookScheduler', () => {
  let logError: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    // The first claim's offset within the poll interval is random; here it is 0.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  function scheduler(pollMs: number, startDue: jest.Mock, drain = jest.fn()) {
    const config = { webhooksPollMs: pollMs } as AppConfig;
    const delivery = { startDue, drain, stop: jest.fn() } as unknown as WebhookDeliveryService;
    return new WebhookScheduler(config, delivery);
  }

  it('claims at each poll while an earlier delivery is still in flight', async () => {
    const hanging = pending();
    const startDue = jest
      .fn()
      .mockResolvedValueOnce(started([hanging.delivery]))
      .mockResolvedValue(NOTHING);
    const job = scheduler(1000, startDue);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2010);
    expect(startDue).toHaveBeenCalledTimes(3);
    hanging.end(false);
    await job.beforeApplicationShutdown();
  });

  it('claims again at once when a delivery ends with work left, otherwise after the interval', async () => {
    const first = pending();
    const second = pending();
    const startDue = jest
      .fn()
      .mockResolvedValueOnce(started([first.delivery, second.delivery]))
      .mockResolvedValue(NOTHING);
    const job = scheduler(1000, startDue);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    expect(startDue).toHaveBeenCalledTimes(1);
    second.end(false);
    await jest.advanceTimersByTimeAsync(10);
    expect(startDue).toHaveBeenCalledTimes(1);
    first.end(true);
    await jest.advanceTimersByTimeAsync(10);
    expect(startDue).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(980);
    expect(startDue).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(100);
    expect(startDue).toHaveBeenCalledTimes(3);
    await job.beforeApplicationShutdown();
  });

  it('claims again at once when a delivery frees room that a full claim took', async () => {
    const one = pending();
    const startDue = jest
      .fn()
      .mockResolvedValueOnce(started([one.delivery], true))
      .mockResolvedValue(NOTHING);
    const job = scheduler(1000, startDue);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    one.end(false);
    await jest.advanceTimersByTimeAsync(10);
    expect(startDue).toHaveBeenCalledTimes(2);
    await job.beforeApplicationShutdown();
  });

  it('waits the poll interval after a failed claim', async () => {
    const startDue = jest
      .fn()
      .mockRejectedValueOnce(new Error('connection refused'))
      .mockResolvedValue(NOTHING);
    const job = scheduler(1000, startDue);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(999);
    expect(startDue).toHaveBeenCalledTimes(1);
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
    await jest.advanceTimersByTimeAsync(1);
    expect(startDue).toHaveBeenCalledTimes(2);
    await job.beforeApplicationShutdown();
  });

  it('stops on shutdown, awaiting the deliveries in flight, although one left work', async () => {
    const inFlight = pending();
    const startDue = jest
      .fn()
      .mockResolvedValueOnce(started([inFlight.delivery]))
      .mockResolvedValue(NOTHING);
    const drain = jest.fn(() => inFlight.delivery.then(() => undefined));
    const job = scheduler(1000, startDue, drain);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = job.beforeApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    inFlight.end(true);
    await stopping;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(startDue).toHaveBeenCalledTimes(1);
  });

  it('never claims with WEBHOOKS_POLL_MS=0', async () => {
    const startDue = jest.fn().mockResolvedValue(NOTHING);
    scheduler(0, startDue).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(startDue).not.toHaveBeenCalled();
  });
});
