import { generateApiKey, isWellFormedApiKey, storedPrefixOf } from './key-format';

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

  describe('storedPrefixOf', () => {
    it('keeps the first 12 characters', () => {
      expect(storedPrefixOf('svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe('svc_live_AbC');
    });
  });
});
