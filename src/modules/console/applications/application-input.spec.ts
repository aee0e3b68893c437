import { AppError } from '../../../common/errors/app-error';
import { validateRequest } from '../../../common/validation/request-validation';
import { ApplicationSettingsBody, NewApplicationBody } from './application.dto';
import { settingsAuditEntries, toNewApplication, toSettings } from './application-input';

const parseNewApplication = (body: unknown, ownerId: string) =>
  toNewApplication(validateRequest(NewApplicationBody, body, 'body'), ownerId);
const parseSettings = (body: unknown) =>
  toSettings(validateRequest(ApplicationSettingsBody, body, 'body'));

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'no error';
};

describe('application bodies', () => {
  describe('NewApplicationBody', () => {
    it('takes the name and the optional fields, with the owner and no redirect URIs by default', () => {
      expect(parseNewApplication({ name: 'Shop', clientAuthMethod: 'none' }, '42')).toEqual({
        name: 'Shop',
        redirectUris: [],
        authMethod: 'none',
        ownerId: '42',
        description: undefined,
        homeUrl: undefined,
        logo: undefined,
        isPublic: undefined,
        requireVerifiedEmail: undefined,
        signUpEnabled: undefined,
      });
    });

    it.each([
      [null, 'invalid_body'],
      [[], 'invalid_body'],
      [{}, 'invalid_body'],
      [{ name: 1 }, 'invalid_body'],
      [{ name: 'A', redirectUris: [1] }, 'invalid_body'],
      [{ name: 'A', clientAuthMethod: 'jwt' }, 'invalid_body'],
      [{ name: 'A', idTokenSignedResponseAlg: 'none' }, 'invalid_body'],
      [{ name: 'A', idTokenSignedResponseAlg: 'HS256' }, 'invalid_body'],
      [{ name: 'A', idTokenSignedResponseAlg: 'ps256' }, 'invalid_body'],
      [{ name: 'A', idTokenSignedResponseAlg: null }, 'invalid_body'],
      [{ name: 'A', enabled: false }, 'unknown_field'],
      [{ name: 'A', ownerId: '1' }, 'unknown_field'],
      [{ name: null }, 'invalid_body'],
      [{ name: 'A', redirectUris: Array(21).fill('https://a.example/cb') }, 'invalid_body'],
    ])('refuses %j with %s', (body, code) => {
      expect(codeOf(() => parseNewApplication(body, '42'))).toBe(code);
    });
  });

  describe('ApplicationSettingsBody', () => {
    it('needs at least one field and accepts enabled', () => {
      expect(codeOf(() => parseSettings({}))).toBe('empty_body');
      expect(parseSettings({ enabled: false })).toMatchObject({ enabled: false });
    });

    it('takes signUpEnabled on creation and in a change, as a boolean only', () => {
      expect(parseNewApplication({ name: 'A', signUpEnabled: true }, '42')).toMatchObject({
        signUpEnabled: true,
      });
      expect(parseSettings({ signUpEnabled: false })).toMatchObject({ signUpEnabled: false });
      expect(codeOf(() => parseSettings({ signUpEnabled: 'yes' }))).toBe('invalid_body');
    });

    it('keeps only the fields sent for the audit log', () => {
      expect(
        settingsAuditEntries(parseSettings({ name: 'B', isPublic: true }), [], 'secret'),
      ).toEqual([{ action: 'application.update', details: { name: 'B', isPublic: true } }]);
    });

    it('records each changed client setting as its own action, each field once', () => {
      const settings = parseSettings({
        name: 'B',
        redirectUris: ['https://a.example/cb'],
        postLogoutRedirectUris: [],
        clientAuthMethod: 'none',
      });
      expect(settingsAuditEntries(settings, ['redirectUris', 'authMethod'], 'secret')).toEqual([
        { action: 'application.update', details: { name: 'B', postLogoutRedirectUris: [] } },
        {
          action: 'application.redirect_uris.update',
          details: { redirectUris: ['https://a.example/cb'] },
        },
        {
          action: 'application.client_auth_method.update',
          details: { clientAuthMethod: 'none', from: 'secret' },
        },
      ]);
    });
  });
});
