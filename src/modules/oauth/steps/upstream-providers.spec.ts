import type { UpstreamProvider } from '../../upstreams/providers/upstream-provider';
import { allowsProvider, offeredSignIn, readUpstreamProviders } from './upstream-providers';

const provider = (id: string, enabled = true): UpstreamProvider =>
  ({ id, displayName: id, kind: 'github', enabled }) as UpstreamProvider;

describe('upstream providers step', () => {
  describe('readUpstreamProviders', () => {
    it('is null (no restriction) when absent or blank', () => {
      expect(readUpstreamProviders({})).toBeNull();
      expect(readUpstreamProviders({ upstream_providers: ' ' })).toBeNull();
    });

    it('keeps the names lower-cased, trimmed and once', () => {
      expect(readUpstreamProviders({ upstream_providers: 'GitHub, password,,github' })).toEqual([
        'github',
        'password',
      ]);
    });
  });

  describe('offeredSignIn', () => {
    const enabled = [provider('github'), provider('corp-sso')];

    it('offers everything without a restriction', () => {
      expect(offeredSignIn(null, enabled)).toEqual({ password: true, providers: enabled });
    });

    it('offers the named configured providers, ignoring unknown names', () => {
      expect(offeredSignIn(['github', 'nope'], enabled)).toEqual({
        password: false,
        providers: [enabled[0]],
      });
    });

    it('offers the password form only when the list names it', () => {
      expect(offeredSignIn(['password'], enabled)).toEqual({ password: true, providers: [] });
      expect(offeredSignIn(['nope'], enabled)).toEqual({ password: false, providers: [] });
    });
  });

  describe('allowsProvider', () => {
    it('allows an enabled provider the list names, or any enabled one without a list', () => {
      expect(allowsProvider(['github'], provider('github'))).toBe(true);
      expect(allowsProvider(null, provider('github'))).toBe(true);
      expect(allowsProvider(['google'], provider('github'))).toBe(false);
      expect(allowsProvider(null, provider('github', false))).toBe(false);
    });
  });
});
