import type { Application } from '../../../applications/application.entity';
import { OAuthError } from '../../protocol/oauth-error';
import { s256 } from '../../../../common/crypto/opaque-token';
import { checkPkce } from './check-pkce';
import { checkPrompt } from './check-prompt';

const app = (clientAuthMethod: 'secret' | 'none') => ({ clientAuthMethod }) as Application;
const challenge = s256('v'.repeat(43));

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.error}: ${error.description}`;
  }
  return 'no error';
}

describe('authorize steps', () => {
  describe('checkPkce', () => {
    it('returns an S256 challenge and null for a secret client without one', () => {
      expect(
        checkPkce({ code_challenge: challenge, code_challenge_method: 'S256' }, app('none')),
      ).toBe(challenge);
      expect(checkPkce({}, app('secret'))).toBeNull();
    });
    it('refuses plain, a missing method, bad lengths and public clients without PKCE', () => {
      expect(
        errorOf(() =>
          checkPkce({ code_challenge: challenge, code_challenge_method: 'plain' }, app('none')),
        ),
      ).toBe('invalid_request: code_challenge_method must be S256');
      expect(errorOf(() => checkPkce({ code_challenge: challenge }, app('none')))).toBe(
        'invalid_request: code_challenge_method must be S256',
      );
      expect(
        errorOf(() =>
          checkPkce(
            { code_challenge: `${challenge}A`, code_challenge_method: 'S256' },
            app('none'),
          ),
        ),
      ).toMatch(/^invalid_request: code_challenge must be 43/);
      expect(errorOf(() => checkPkce({}, app('none')))).toBe(
        'invalid_request: Public clients must send a PKCE code_challenge',
      );
    });
  });
  describe('checkPrompt', () => {
    it('accepts none only, alone, without openid (as before)', () => {
      expect(checkPrompt({ prompt: 'none' }, 'read')).toEqual({ prompt: 'none' });
      expect(checkPrompt({}, 'read')).toEqual({ prompt: null });
      expect(errorOf(() => checkPrompt({ prompt: 'none login' }, 'read'))).toBe(
        'invalid_request: prompt=none cannot be combined with other values',
      );
      expect(errorOf(() => checkPrompt({ prompt: 'consent' }, 'read'))).toBe(
        'invalid_request: The only supported prompt value is none',
      );
      expect(errorOf(() => checkPrompt({ prompt: ['none', 'none'] }, 'read'))).toBe(
        'invalid_request: The prompt parameter is repeated or malformed',
      );
    });
    it('accepts login, consent and select_account with openid, never with none', () => {
      expect(checkPrompt({ prompt: 'login consent' }, 'openid')).toEqual({
        prompt: null,
        prompts: ['login', 'consent'],
      });
      expect(checkPrompt({ prompt: 'select_account' }, 'openid profile')).toEqual({
        prompt: null,
        prompts: ['select_account'],
      });
      expect(errorOf(() => checkPrompt({ prompt: 'login none' }, 'openid'))).toBe(
        'invalid_request: prompt=none cannot be combined with other values',
      );
      expect(errorOf(() => checkPrompt({ prompt: 'login create' }, 'openid'))).toBe(
        'invalid_request: Unsupported prompt value: create',
      );
    });

    it('never echoes an unknown prompt value into the error the client receives', () => {
      const text = 'Your_session_expired._Call_+1-555-0100';
      expect(errorOf(() => checkPrompt({ prompt: `login ${text}` }, 'openid'))).toBe(
        'invalid_request: Unsupported prompt value',
      );
    });
  });
});
