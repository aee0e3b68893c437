import type { UpstreamProvider } from '../../../upstreams/providers/upstream-provider';
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

    it('leaves the password form out only for a list that offers a provider without naming it', () => {
      expect(offeredSignIn(['password'], enabled)).toEqual({ password: true, providers: [] });
      expect(offeredSignIn(['github', 'password'], enabled)).toEqual({
        password: true,
        providers: [enabled[0]],
      });
    });

    it('keeps the password form when the list offers no configured provider', () => {
      // An existing integration sending upstream_providers=github to a service without GitHub.
      expect(offeredSignIn(['nope'], enabled)).toEqual({ password: true, providers: [] });
      expect(offeredSignIn(['github'], [])).toEqual({ password: true, providers: [] });
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
