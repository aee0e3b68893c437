import { answerFloor, ANSWER_FLOOR_MS, floorStart } from './answer-floor';

describe(answerFloor.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Whether the promise has settled once pending callbacks ran. */
  async function settled(promise: Promise<void>): Promise<boolean> {
    let done = false;
    void promise.then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    return done;
  }

  it('holds the answer until the floor has passed since the start', async () => {
    const started = floorStart();
    await jest.advanceTimersByTimeAsync(40);
    const floor = answerFloor(started);
    expect(await settled(floor)).toBe(false);
    await jest.advanceTimersByTimeAsync(ANSWER_FLOOR_MS - 41);
    expect(await settled(floor)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(floor)).toBe(true);
  });

  it('adds nothing when the work took longer than the floor', async () => {
    const started = floorStart();
    await jest.advanceTimersByTimeAsync(ANSWER_FLOOR_MS + 5);
    expect(await settled(answerFloor(started))).toBe(true);
  });
});
