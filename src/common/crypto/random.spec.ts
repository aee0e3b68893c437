import { randomBase62 } from './random';

describe('randomBase62', () => {
  it('uses every character about equally (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each; a biased mapping of 256 bytes onto 62 symbols gives the first
    // 8 symbols ~25% more. Chi-square with 61 degrees of freedom stays far below 150.
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - 2000) ** 2 / 2000, 0);
    expect(chiSquare).toBeLessThan(150);
  });
});
