import { formParams } from '../../protocol/params';
import { OAuthError } from '../../protocol/oauth-error';
import { TOKEN_PARAMETERS } from '../token.service';
import { authorizationCodeGrant } from './authorization-code';
import { grantRequest } from './grant-type';
import { refreshTokenGrant } from './refresh-token';

/** The typed request a grant makes of a form body (as the body reader parsed it). */
const codeRequest = (body: Record<string, unknown>) =>
  grantRequest(authorizationCodeGrant, formParams(body, TOKEN_PARAMETERS));
const refreshRequest = (body: Record<string, unknown>) =>
  grantRequest(refreshTokenGrant, formParams(body, TOKEN_PARAMETERS));

const describeError = (outcome: unknown): string | undefined =>
  outcome instanceof OAuthError ? `${outcome.error}: ${outcome.description}` : undefined;

const VERIFIER = 'v'.repeat(43);
const CODE = { code: 'c', redirect_uri: 'https://client.example/cb' };
const CODE_TYPED = { code: 'c', redirectUri: 'https://client.example/cb' };

describe('grant types', () => {
  describe('authorization_code', () => {
    it('makes the typed request of the code exchange', () => {
      expect(codeRequest({ ...CODE, code_verifier: VERIFIER, scope: 'x' })).toEqual({
        code: 'c',
        redirectUri: 'https://client.example/cb',
        verifier: VERIFIER,
      });
      expect(codeRequest({ ...CODE, code_verifier: '' })).toEqual({
        ...CODE_TYPED,
        verifier: undefined,
      });
    });

    it('takes a code_verifier of 43 to 128 unreserved characters (RFC 7636 section 4.1)', () => {
      for (const verifier of ['a'.repeat(43), 'A-._~'.repeat(25) + 'abc'])
        expect(describeError(codeRequest({ ...CODE, code_verifier: verifier }))).toBeUndefined();
      for (const verifier of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`])
        expect(describeError(codeRequest({ ...CODE, code_verifier: verifier }))).toBe(
          'invalid_request: code_verifier must be 43 to 128 unreserved characters',
        );
    });

    it('names the first problem: a repeated parameter of the grant, then a missing one', () => {
      expect(describeError(codeRequest({ code: ['a', 'b'], redirect_uri: ['x', 'y'] }))).toBe(
        'invalid_request: The code parameter is repeated or malformed',
      );
      expect(describeError(codeRequest({ redirect_uri: ['x', 'y'] }))).toBe(
        'invalid_request: The redirect_uri parameter is repeated or malformed',
      );
      expect(describeError(codeRequest({ redirect_uri: 'x' }))).toBe(
        'invalid_request: code is required',
      );
      expect(describeError(codeRequest({ code: 'c' }))).toBe(
        'invalid_request: redirect_uri is required',
      );
    });

    it('ignores the parameters of other grants, repeated or not', () => {
      const request = codeRequest({ ...CODE, scope: ['a', 'b'], refresh_token: ['r', 's'] });
      expect(describeError(request)).toBeUndefined();
    });
  });

  describe('refresh_token', () => {
    it('makes the typed request of a refresh, its scope read once in canonical form', () => {
      expect(refreshRequest({ refresh_token: 'r', scope: 'email write read' })).toEqual({
        refreshToken: 'r',
        scope: 'read email',
      });
      // No scope, an empty one or one naming no scope of the service: keep the token's.
      for (const scope of [undefined, '', 'write'])
        expect(refreshRequest({ refresh_token: 'r', scope })).toEqual({
          refreshToken: 'r',
          scope: null,
        });
    });

    it('names a repeated parameter of the grant, then a missing refresh_token', () => {
      expect(describeError(refreshRequest({ refresh_token: 'r', scope: ['read', 'read'] }))).toBe(
        'invalid_request: The scope parameter is repeated or malformed',
      );
      expect(describeError(refreshRequest({ scope: 'read' }))).toBe(
        'invalid_request: refresh_token is required',
      );
      expect(
        describeError(refreshRequest({ refresh_token: 'r', code: ['a', 'b'] })),
      ).toBeUndefined();
    });
  });
});
