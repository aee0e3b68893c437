import { sha256Hex } from '../../../common/crypto/hash';
import {
  displayUserCode,
  newUserCode,
  normaliseUserCode,
  USER_CODE_ALPHABET,
  userCodeHash,
  userCodeKey,
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
  });

  it('stores a code as a keyed hash: the same under one secret, another under another', () => {
    const key = userCodeKey('a session secret of the deployment');
    expect(userCodeHash('BCDFGHJK', key)).toMatch(/^[0-9a-f]{64}$/);
    expect(userCodeHash('BCDFGHJK', userCodeKey('a session secret of the deployment'))).toBe(
      userCodeHash('BCDFGHJK', key),
    );
    expect(userCodeHash('BCDFGHJK', userCodeKey('another secret'))).not.toBe(
      userCodeHash('BCDFGHJK', key),
    );
    // Not the plain SHA-256 a copy of the table could be searched against.
    expect(userCodeHash('BCDFGHJK', key)).not.toBe(sha256Hex('BCDFGHJK'));
  });

  it('refuses what cannot be a code', () => {
    for (const typed of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', undefined, ['x']]) {
      expect(normaliseUserCode(typed)).toBeNull();
    }
  });
});
