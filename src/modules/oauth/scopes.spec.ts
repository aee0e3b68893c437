import { formatScope, parseScope, scopeAllows, scopeCovers, scopeUnion } from './scopes';

describe('scopes', () => {
  describe('parseScope', () => {
    it('accepts read and space-separated lists in canonical order', () => {
      expect(parseScope('read')).toEqual(['read']);
      expect(parseScope('email  read read')).toEqual(['read', 'email']);
    });
    it('refuses empty and unknown scopes', () => {
      expect(parseScope('')).toBeNull();
      expect(parseScope('   ')).toBeNull();
      expect(parseScope('read admin')).toBeNull();
    });
  });
  it('covers, unites and allows', () => {
    expect(scopeCovers('read email', 'email')).toBe(true);
    expect(scopeCovers('email', 'read')).toBe(false);
    expect(scopeCovers(null, 'read')).toBe(false);
    expect(scopeUnion('email', 'read')).toBe('read email');
    expect(scopeUnion(null, 'profile')).toBe('profile');
    expect(formatScope(['email', 'profile'])).toBe('profile email');
    expect(scopeAllows('email', ['read', 'profile'])).toBe(false);
    expect(scopeAllows('profile', ['read', 'profile'])).toBe(true);
  });
});
