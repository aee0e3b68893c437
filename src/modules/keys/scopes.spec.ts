import { firstUnmetRequirement, isApiScope } from './scopes';

describe('scopes', () => {
  describe('isApiScope', () => {
    it('accepts exactly the five scopes of docs/contract/api-keys.md#scopes', () => {
      for (const scope of [
        'user:read',
        'user:write',
        'group:write',
        'stats:read',
        'relation:revoke',
      ]) {
        expect(isApiScope(scope)).toBe(true);
      }
      for (const scope of ['user:READ', 'users:read', 'admin', '', 'stats:write']) {
        expect(isApiScope(scope)).toBe(false);
      }
    });
  });

  describe('firstUnmetRequirement', () => {
    it('is undefined when every requirement has one granted scope', () => {
      expect(firstUnmetRequirement(['user:read'], [['user:read']])).toBeUndefined();
      expect(
        firstUnmetRequirement(['user:write', 'group:write'], [['user:write'], ['group:write']]),
      ).toBeUndefined();
      expect(firstUnmetRequirement([], [])).toBeUndefined();
    });

    it('returns the first requirement no granted scope meets', () => {
      expect(firstUnmetRequirement([], [['user:read']])).toEqual(['user:read']);
      expect(firstUnmetRequirement(['user:write'], [['user:write'], ['group:write']])).toEqual([
        'group:write',
      ]);
      expect(firstUnmetRequirement(['group:write'], [['user:write'], ['group:write']])).toEqual([
        'user:write',
      ]);
    });
  });
});
