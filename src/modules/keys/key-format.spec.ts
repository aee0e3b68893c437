import { createHash } from 'node:crypto';
import {
  digestsEqual,
  generateApiKey,
  isWellFormedApiKey,
  randomBase62,
  sha256Hex,
  storedPrefixOf,
} from './key-format';

describe('key format', () => {
  describe('generateApiKey', () => {
    it('is svc_live_ followed by 32 base62 characters', () => {
      for (let i = 0; i < 200; i++) {
        const key = generateApiKey();
        expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
        expect(key).toHaveLength(41);
      }
    });

    it('does not repeat', () => {
      const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
      expect(keys.size).toBe(1000);
    });
  });

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

  describe('isWellFormedApiKey', () => {
    it.each([
      ['svc_live_' + 'a'.repeat(32), true],
      ['svc_live_' + 'a'.repeat(31), false],
      ['svc_live_' + 'a'.repeat(33), false],
      ['svc_test_' + 'a'.repeat(32), false],
      ['svc_live_' + 'a'.repeat(31) + '-', false],
      ['SVC_LIVE_' + 'a'.repeat(32), false],
      ['', false],
    ])('%s → %s', (key, expected) => {
      expect(isWellFormedApiKey(key)).toBe(expected);
    });
  });

  describe('sha256Hex', () => {
    it('is the hex SHA-256 of the UTF-8 text', () => {
      expect(sha256Hex('abc')).toBe(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
      const key = generateApiKey();
      expect(sha256Hex(key)).toBe(createHash('sha256').update(key).digest('hex'));
    });
  });

  describe('storedPrefixOf', () => {
    it('keeps the first 12 characters', () => {
      expect(storedPrefixOf('svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe('svc_live_AbC');
    });
  });

  describe('digestsEqual', () => {
    it('compares digests', () => {
      expect(digestsEqual(sha256Hex('a'), sha256Hex('a'))).toBe(true);
      expect(digestsEqual(sha256Hex('a'), sha256Hex('b'))).toBe(false);
      expect(digestsEqual('ab', 'abcd')).toBe(false);
    });
  });
});
