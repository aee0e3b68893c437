import {
  ACTION_TARGET_FIELDS,
  bindingOf,
  CONFIRMATION_ACTIONS,
  isConfirmationAction,
} from './confirmation-actions';

const PASSKEY = '5f0c7a52-3f4e-4a43-9d0e-2b1d6f1d7e01';
const DIGEST = 'a'.repeat(64);
const NO_CHANGE = { changeDigest: null, providerId: null, webhookId: null };
const NO_MEMBER = { targetUserId: null, role: null };

describe('PasskeyConfirmations', () => {
  describe('bindingOf', () => {
    it('keeps exactly the target fields the action names', () => {
      const all = {
        applicationId: 3,
        keyId: 7,
        passkeyId: PASSKEY,
        upstreamIdentityId: 9,
        changeDigest: DIGEST,
        providerId: 'github',
      };
      expect(bindingOf('key.create', all)).toEqual({
        action: 'key.create',
        applicationId: 3,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        ...NO_CHANGE,
        ...NO_MEMBER,
      });
      expect(bindingOf('key.rotate', all)).toEqual({
        action: 'key.rotate',
        applicationId: 3,
        keyId: 7,
        passkeyId: null,
        upstreamIdentityId: null,
        ...NO_CHANGE,
        ...NO_MEMBER,
      });
      expect(bindingOf('passkey.remove', all)).toEqual({
        action: 'passkey.remove',
        applicationId: null,
        keyId: null,
        passkeyId: PASSKEY,
        upstreamIdentityId: null,
        ...NO_CHANGE,
        ...NO_MEMBER,
      });
      expect(bindingOf('upstream.unbind', all)).toEqual({
        action: 'upstream.unbind',
        applicationId: null,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: 9,
        ...NO_CHANGE,
        ...NO_MEMBER,
      });
      expect(bindingOf('passkey.register', all)).toEqual({
        action: 'passkey.register',
        applicationId: null,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        ...NO_CHANGE,
        ...NO_MEMBER,
      });
      expect(bindingOf('client_settings.update', all)).toEqual({
        action: 'client_settings.update',
        applicationId: 3,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        changeDigest: DIGEST,
        providerId: null,
        webhookId: null,
        ...NO_MEMBER,
      });
      expect(bindingOf('upstream.bind', all)).toEqual({
        action: 'upstream.bind',
        applicationId: null,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        changeDigest: null,
        providerId: 'github',
        webhookId: null,
        ...NO_MEMBER,
      });
    });

    it('binds a webhook change to the application, the endpoint and, where it has one, the digest', () => {
      const target = { applicationId: 3, keyId: 7, webhookId: 5, changeDigest: DIGEST };
      const base = {
        applicationId: 3,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        providerId: null,
        ...NO_MEMBER,
      };
      expect(bindingOf('webhook.create', target)).toEqual({
        ...base,
        action: 'webhook.create',
        webhookId: null,
        changeDigest: DIGEST,
      });
      expect(bindingOf('webhook.update_url', target)).toEqual({
        ...base,
        action: 'webhook.update_url',
        webhookId: 5,
        changeDigest: DIGEST,
      });
      expect(bindingOf('webhook.delete', target)).toEqual({
        ...base,
        action: 'webhook.delete',
        webhookId: 5,
        changeDigest: null,
      });
    });

    it('binds a console role change to the application, the user and the role', () => {
      const target = { applicationId: 3, keyId: 7, targetUserId: '42', role: 'viewer' };
      expect(bindingOf('console_role.grant', target)).toEqual({
        action: 'console_role.grant',
        applicationId: 3,
        keyId: null,
        passkeyId: null,
        upstreamIdentityId: null,
        ...NO_CHANGE,
        targetUserId: '42',
        role: 'viewer',
      });
    });

    it.each([
      ['a missing field', 'key.revoke', { applicationId: 3 }],
      [
        'a role change without its role',
        'console_role.grant',
        { applicationId: 3, targetUserId: '4' },
      ],
      [
        'a role that is not a member role',
        'console_role.revoke',
        { applicationId: 3, targetUserId: '4', role: 'owner' },
      ],
      [
        'a user id that is not canonical',
        'console_role.grant',
        { applicationId: 3, targetUserId: '04', role: 'admin' },
      ],
      ['a key id that is not an integer', 'key.delete', { applicationId: 3, keyId: 1.5 }],
      ['an id beyond the integer column', 'key.create', { applicationId: 2 ** 31 }],
      ['an id of zero', 'application.delete', { applicationId: 0 }],
      ['a passkey id that is not a UUID', 'passkey.remove', { passkeyId: 'abc' }],
      ['an unbind without its identity', 'upstream.unbind', {}],
      ['a settings change without its digest', 'client_settings.update', { applicationId: 3 }],
      [
        'a digest that is not one',
        'client_settings.update',
        { applicationId: 3, changeDigest: 'x' },
      ],
      ['a bind without its provider', 'upstream.bind', {}],
      [
        'a replay without its endpoint',
        'webhook.replay',
        { applicationId: 3, changeDigest: 'a'.repeat(64) },
      ],
      ['a URL change without its digest', 'webhook.update_url', { applicationId: 3, webhookId: 5 }],
    ] as const)('is null for %s', (_, action, target) => {
      expect(bindingOf(action, target)).toBeNull();
    });
  });

  it('names the target fields of every action, and only actions are actions', () => {
    expect(Object.keys(ACTION_TARGET_FIELDS).sort()).toEqual([...CONFIRMATION_ACTIONS].sort());
    expect(CONFIRMATION_ACTIONS.every(isConfirmationAction)).toBe(true);
    expect(['key.steal', undefined, 1].some(isConfirmationAction)).toBe(false);
  });
});
