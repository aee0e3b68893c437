import { ConfirmationTargetRegistry } from './confirmation-target-registry';
import { CONFIRMATION_ACTIONS } from './confirmation-actions';

const check = { check: () => Promise.resolve() };

describe(ConfirmationTargetRegistry.name, () => {
  describe('onApplicationBootstrap', () => {
    it('refuses to boot while an action has no target check', () => {
      const registry = new ConfirmationTargetRegistry();
      registry.register('key.create', check);
      expect(() => registry.onApplicationBootstrap()).toThrow(
        /without a target check: key\.rotate/,
      );
    });

    it('boots when every action has one', () => {
      const registry = new ConfirmationTargetRegistry();
      for (const action of CONFIRMATION_ACTIONS) registry.register(action, check);
      expect(() => registry.onApplicationBootstrap()).not.toThrow();
    });
  });

  describe('register', () => {
    it('refuses a second check for one action', () => {
      const registry = new ConfirmationTargetRegistry();
      registry.register('upstream.bind', check);
      expect(() => registry.register('upstream.bind', check)).toThrow(/registered twice/);
    });
  });

  describe('checkOf', () => {
    it('throws for an action without a check, so it is never confirmed', () => {
      expect(() => new ConfirmationTargetRegistry().checkOf('key.delete')).toThrow(
        /no target check/,
      );
    });
  });
});
