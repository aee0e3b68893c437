import {
  formatScope,
  knownScopes,
  refreshScope,
  scopeAllows,
  scopeCovers,
  scopeUnion,
} from './scopes';

describe('scopes', () => {
  describe('knownScopes', () => {
    it('reads space-separated lists in canonical order, each scope once', () => {
      expect(knownScopes('read')).toEqual(['read']);
      expect(knownScopes('email  read read')).toEqual(['read', 'email']);
    });
    it('ignores values the service does not define', () => {
      expect(knownScopes('read write')).toEqual(['read']);
      expect(knownScopes('openid offline_access profile')).toEqual(['openid', 'profile']);
      expect(knownScopes('READ')).toEqual([]);
      expect(knownScopes('write')).toEqual([]);
      expect(knownScopes('')).toEqual([]);
      expect(knownScopes(undefined)).toEqual([]);
    });
  });
  describe('refreshScope', () => {
    it('is the canonical known scope, or null (keep the grant) when none is named', () => {
      expect(refreshScope('email read write')).toBe('read email');
      expect(refreshScope('write')).toBeNull();
      expect(refreshScope(undefined)).toBeNull();
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
