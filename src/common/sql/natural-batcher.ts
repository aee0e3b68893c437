/**
 * Natural batching (group commit): the items that arrive during one turn of the event loop go
 * together, as one batch, at the end of that turn (setImmediate), while fewer than `maxInFlight`
 * batches are running; items that arrive while the limit is reached wait and go together as the
 * next batch. No timer: at low load every item runs alone within the turn it arrived in; under
 * load a batch holds what arrived during one round trip, or during one turn (the requests whose
 * bytes one poll of the sockets returned). DataLoader and ioredis's auto-pipelining gather the
 * calls of one tick the same way; a turn also spans the I/O callbacks of one poll
 * (docs/performance/oauth.md, "Group commit", "Batches gathered per turn of the event loop").
 */
/**
 * The sizes the service's batched statements use: at most 64 requests per statement, two
 * statements of a kind running at once (measured against one for the token endpoint:
 * docs/performance/oauth.md, "Group commit").
 */
export const STATEMENT_BATCHING = { maxSize: 64, maxInFlight: 2 } as const;

export interface NaturalBatcherOptions<I, O> {
  /**
   * Runs several items in one go and answers in the items' order. It must reject only when it
   * changed nothing (e.g. one SQL statement that failed): the batch's items are then run alone.
   */
  runBatch(items: readonly I[]): Promise<O[]>;
  /** Runs one item on its own: a lone item, and each item of a batch that failed. */
  runOne(item: I): Promise<O>;
  /**
   * Items of equal key never share a batch; the later one waits for a later batch. Without it,
   * any items may share one (reads, which change nothing).
   */
  key?(item: I): string;
  /** The largest batch. */
  maxSize: number;
  /** Batches (or lone items) running at the same time. */
  maxInFlight: number;
  /** Called with the size of each batch as it starts, lone items included (the metrics). */
  onBatch?(size: number): void;
  /** Called once per failed batch, before its items run alone. */
  onBatchFailure?(error: unknown, size: number): void;
}

/** What a batcher has run so far (a debug counter: one increment per batch, no log line). */
export interface BatchStats {
  /** Batches run, lone items included. */
  batches: number;
  items: number;
  /** Batches whose runBatch rejected (their items then ran alone). */
  failedBatches: number;
  /** How many batches had each size. */
  sizes: Record<number, number>;
}

interface Waiting<I, O> {
  item: I;
  key: string | undefined;
  resolve(value: O): void;
  reject(reason: unknown): void;
}

export class NaturalBatcher<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private drainScheduled = false;
  private readonly counts: BatchStats = { batches: 0, items: 0, failedBatches: 0, sizes: {} };

  constructor(private readonly options: NaturalBatcherOptions<I, O>) {
    if (options.maxSize < 1 || options.maxInFlight < 1) {
      throw new Error('NaturalBatcher: maxSize and maxInFlight must be at least 1');
    }
  }

  /** Runs `item`, alone or with others that wait at the same time; settles with its own answer. */
  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, key: this.options.key?.(item), resolve, reject });
      this.drainAtEndOfTurn();
    });
  }

  /** Items waiting for a batch to finish (not counting those running). */
  get waiting(): number {
    return this.queue.length;
  }

  get stats(): BatchStats {
    return { ...this.counts, sizes: { ...this.counts.sizes } };
  }

  /** Once per turn of the event loop, after the turn's I/O callbacks (setImmediate). */
  private drainAtEndOfTurn(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      void this.execute(batch).finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  /** The next batch: waiting items in arrival order, at most maxSize, no key twice. */
  private take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    const rest: Waiting<I, O>[] = [];
    for (const waiting of this.queue) {
      const taken = waiting.key !== undefined && keys.has(waiting.key);
      if (batch.length < this.options.maxSize && !taken) {
        if (waiting.key !== undefined) keys.add(waiting.key);
        batch.push(waiting);
      } else {
        rest.push(waiting);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async execute(batch: Waiting<I, O>[]): Promise<void> {
    this.counts.batches += 1;
    this.counts.items += batch.length;
    this.counts.sizes[batch.length] = (this.counts.sizes[batch.length] ?? 0) + 1;
    this.options.onBatch?.(batch.length);
    if (batch.length === 1) return this.alone(batch[0]);
    let answers: O[];
    try {
      answers = await this.options.runBatch(batch.map((w) => w.item));
    } catch (error) {
      this.counts.failedBatches += 1;
      this.options.onBatchFailure?.(error, batch.length);
      await Promise.all(batch.map((waiting) => this.alone(waiting)));
      return;
    }
    if (answers.length !== batch.length) {
      // A bug, after the batch may have taken effect: never run its items a second time.
      const error = new Error(`NaturalBatcher: ${answers.length} answers for ${batch.length}`);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(answers[i]));
  }

  private async alone(waiting: Waiting<I, O>): Promise<void> {
    try {
      waiting.resolve(await this.options.runOne(waiting.item));
    } catch (error) {
      waiting.reject(error);
    }
  }
}
