import { NaturalBatcher, type NaturalBatcherOptions } from './natural-batcher';

/** A promise settled from outside: the test decides when a "round trip" ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Call {
  kind: 'batch' | 'one';
  items: string[];
  done: ReturnType<typeof deferred<void>>;
  finished?: boolean;
}

/** A batcher over strings whose calls wait until the test finishes them; answers `<item>!`. */
function harness(options: Partial<NaturalBatcherOptions<string, string>> = {}) {
  const calls: Call[] = [];
  const failing = new Set<string>();
  const call = async (kind: Call['kind'], items: string[]): Promise<void> => {
    const done = deferred<void>();
    calls.push({ kind, items, done });
    await done.promise;
  };
  const batcher = new NaturalBatcher<string, string>({
    maxSize: 64,
    maxInFlight: 1,
    key: (item) => item.split('#')[0],
    runBatch: async (items) => {
      await call('batch', [...items]);
      if (items.some((item) => failing.has(item))) throw new Error('batch failed');
      return items.map((item) => `${item}!`);
    },
    runOne: async (item) => {
      await call('one', [item]);
      if (failing.has(item)) throw new Error(`${item} failed`);
      return `${item}!`;
    },
    ...options,
  });
  /** Finishes the oldest unfinished call and lets the batcher react. */
  const finish = async (): Promise<Call> => {
    const next = calls.find((c) => !c.finished);
    if (!next) throw new Error('no call in flight');
    next.finished = true;
    next.done.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    return next;
  };
  return { batcher, calls, failing, finish };
}

const settled = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: Error) => ({ error: error.message }),
  );

/** Lets the current turn of the event loop end: the batcher sends what arrived during it. */
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(NaturalBatcher.name, () => {
  it('runs a lone item alone, at the end of the turn it arrived in', async () => {
    const { batcher, calls, finish } = harness();
    const a = batcher.run('a');
    expect(calls).toEqual([]);
    await endOfTurn();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['one', ['a']]]);
    await finish();
    await expect(a).resolves.toBe('a!');
  });

  it('sends the items that arrive in one turn of the event loop as one batch', async () => {
    const { batcher, calls, finish } = harness();
    const answers = ['a', 'b', 'c'].map((item) => batcher.run(item));
    await endOfTurn();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([['batch', ['a', 'b', 'c']]]);
    await finish();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!']);
  });

  it('sends what arrives during a round trip as the next batch, answers in order', async () => {
    const { batcher, calls, finish } = harness();
    const first = batcher.run('a');
    await endOfTurn();
    const answers = ['b', 'c', 'd'].map((item) => batcher.run(item));
    expect(batcher.waiting).toBe(3);
    await finish();
    expect(calls.map((c) => [c.kind, c.items])).toEqual([
      ['one', ['a']],
      ['batch', ['b', 'c', 'd']],
    ]);
    await finish();
    await expect(Promise.all([first, ...answers])).resolves.toEqual(['a!', 'b!', 'c!', 'd!']);
    expect(batcher.stats).toEqual({
      batches: 2,
      items: 4,
      failedBatches: 0,
      sizes: { 1: 1, 3: 1 },
    });
  });

  it('caps a batch at maxSize; the rest goes next, in arrival order', async () => {
    const { batcher, calls, finish } = harness({ maxSize: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.run(item));
    await endOfTurn();
    await finish();
    await finish();
    await finish();
    expect(calls.map((c) => c.items)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it('never puts two items of one key in a batch: the later one goes in a later batch', async () => {
    const { batcher, calls, finish } = harness();
    const answers = ['a', 'k#1', 'b', 'k#2', 'k#3', 'c'].map((item) => batcher.run(item));
    await endOfTurn();
    await finish();
    await finish();
    await finish();
    expect(calls.map((c) => c.items)).toEqual([['a', 'k#1', 'b', 'c'], ['k#2'], ['k#3']]);
    await expect(Promise.all(answers)).resolves.toHaveLength(6);
  });

  it('without a key, puts equal items in one batch (reads)', async () => {
    const { batcher, calls, finish } = harness({ key: undefined });
    const answers = ['k', 'k', 'a', 'k'].map((item) => batcher.run(item));
    await endOfTurn();
    await finish();
    expect(calls.map((c) => c.items)).toEqual([['k', 'k', 'a', 'k']]);
    await expect(Promise.all(answers)).resolves.toEqual(['k!', 'k!', 'a!', 'k!']);
  });

  it('runs each item of a failed batch alone, so one bad item fails no other', async () => {
    const failures: number[] = [];
    const { batcher, calls, failing, finish } = harness({
      onBatchFailure: (_, size) => failures.push(size),
    });
    failing.add('bad');
    const answers = ['a', 'bad', 'b'].map((item) => settled(batcher.run(item)));
    await endOfTurn();
    await finish(); // the batch a, bad, b: rejects
    expect(calls.map((c) => [c.kind, c.items])).toEqual([
      ['batch', ['a', 'bad', 'b']],
      ['one', ['a']],
      ['one', ['bad']],
      ['one', ['b']],
    ]);
    await finish();
    await finish();
    await finish();
    await expect(Promise.all(answers)).resolves.toEqual([
      { value: 'a!' },
      { error: 'bad failed' },
      { value: 'b!' },
    ]);
    expect(failures).toEqual([3]);
    expect(batcher.stats.failedBatches).toBe(1);
  });

  it('holds the next batch until the fallback of a failed one has finished', async () => {
    const { batcher, calls, failing, finish } = harness();
    failing.add('bad');
    const answers = ['a', 'bad'].map((item) => settled(batcher.run(item)));
    await endOfTurn();
    const later = batcher.run('later');
    await finish(); // the batch fails; a and bad run alone
    expect(calls.filter((c) => c.items.includes('later'))).toEqual([]);
    await finish();
    await finish();
    expect(calls.at(-1)?.items).toEqual(['later']);
    await finish();
    await expect(later).resolves.toBe('later!');
    await expect(Promise.all(answers)).resolves.toHaveLength(2);
  });

  it('runs up to maxInFlight batches at the same time', async () => {
    const { batcher, calls, finish } = harness({ maxInFlight: 2 });
    const a = batcher.run('a');
    await endOfTurn();
    const b = batcher.run('b');
    await endOfTurn();
    const answers = ['c', 'd'].map((item) => batcher.run(item));
    await endOfTurn();
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b']]);
    await finish();
    expect(calls.map((c) => c.items)).toEqual([['a'], ['b'], ['c', 'd']]);
    await finish();
    await finish();
    await expect(Promise.all([a, b, ...answers])).resolves.toEqual(['a!', 'b!', 'c!', 'd!']);
  });

  it('rejects (and never re-runs) a batch whose answers do not match its items', async () => {
    const runOne = jest.fn((item: string) => Promise.resolve(item));
    const gate = deferred<void>();
    const batcher = new NaturalBatcher<string, string>({
      maxSize: 8,
      maxInFlight: 1,
      key: (item) => item,
      runOne: async (item) => {
        await gate.promise;
        return runOne(item);
      },
      runBatch: () => Promise.resolve(['only one']),
    });
    const first = batcher.run('first');
    await endOfTurn();
    const answers = ['a', 'b'].map((item) => settled(batcher.run(item)));
    gate.resolve();
    await first;
    await expect(Promise.all(answers)).resolves.toEqual([
      { error: 'NaturalBatcher: 1 answers for 2' },
      { error: 'NaturalBatcher: 1 answers for 2' },
    ]);
    expect(runOne).toHaveBeenCalledTimes(1);
  });
});
