import {
  displayUserCode,
  newUserCode,
  normaliseUserCode,
  USER_CODE_ALPHABET,
  userCodeHash,
} from './user-code';

describe('user codes (RFC 8628 section 6.1)', () => {
  it('draws 8 letters of the 20 consonants', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = newUserCode();
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
    }
    expect(USER_CODE_ALPHABET).toHaveLength(20);
  });

  it('shows a code with a dash and compares it case-, dash- and space-insensitively', () => {
    expect(displayUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', 'bcdfghjk', ' BCDF GHJK ', 'bc-df-gh-jk']) {
      expect(normaliseUserCode(typed)).toBe('BCDFGHJK');
    }
    expect(userCodeHash('BCDFGHJK')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses what cannot be a code', () => {
    for (const typed of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', undefined, ['x']]) {
      expect(normaliseUserCode(typed)).toBeNull();
    }
  });
});
