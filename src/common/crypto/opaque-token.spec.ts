import { newOpaqueToken } from './opaque-token';

describe('newOpaqueToken', () => {
  // 2000 tokens: the bulk draw of 128 tokens is refilled 15 times on the way.
  const tokens = Array.from({ length: 2000 }, () => newOpaqueToken());
  const bytes = tokens.map((token) => Buffer.from(token, 'base64url'));

  it('is 256 bits as 43 base64url characters', () => {
    for (const [i, token] of tokens.entries()) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(bytes[i]).toHaveLength(32);
    }
  });

  it('never hands out the same bytes twice, across refills', () => {
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('hands out random bytes, never the zeroed slices of bytes already taken', () => {
    const counts = new Array<number>(256).fill(0);
    for (const token of bytes) for (const byte of token) counts[byte] += 1;
    // 64,000 bytes, 250 expected per value. A zeroed or repeated slice, or a pool refilled late,
    // would pile up on one value; chi-square with 255 degrees of freedom stays far below 400.
    const chiSquare = counts.reduce((sum, n) => sum + (n - 250) ** 2 / 250, 0);
    expect(chiSquare).toBeLessThan(400);
    for (const token of bytes) expect(token.equals(Buffer.alloc(32))).toBe(false);
  });
});
