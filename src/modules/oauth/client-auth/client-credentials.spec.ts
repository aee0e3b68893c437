import { clientCredentials, CLIENT_ID_MAX_LENGTH } from './client-credentials';
import { formParams } from '../protocol/params';
import { OAuthError } from '../protocol/oauth-error';

const NAMES = ['client_id', 'client_secret'] as const;

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** The credentials of a form body (as the body reader parsed it) and an Authorization header. */
const credentials = (body: Record<string, unknown>, authorization?: string) =>
  clientCredentials(formParams(body, NAMES), authorization);

function failure(body: Record<string, unknown>, authorization?: string): [string, string] {
  try {
    credentials(body, authorization);
  } catch (error) {
    if (error instanceof OAuthError) return [error.error, error.description];
    throw error;
  }
  throw new Error('no error');
}

describe('client credentials', () => {
  describe('clientCredentials', () => {
    it('reads HTTP Basic (client_secret_basic), both parts form-urlencoded', () => {
      expect(credentials({}, basic('app', 's3cret'))).toEqual({
        method: 'basic',
        clientId: 'app',
        clientSecret: 's3cret',
      });
      expect(credentials({}, basic('a%3Ab+c', 'p%25+q'))).toEqual({
        method: 'basic',
        clientId: 'a:b c',
        clientSecret: 'p% q',
      });
      // An empty Basic secret is no secret: the way a `none` client may use Basic.
      expect(credentials({}, basic('app', ''))).toEqual({
        method: 'basic',
        clientId: 'app',
        clientSecret: undefined,
      });
      // The body may repeat the Basic client_id.
      expect(credentials({ client_id: 'app' }, basic('app', 's')).method).toBe('basic');
    });

    it('reads client_id and client_secret fields (client_secret_post)', () => {
      expect(credentials({ client_id: 'app', client_secret: 's3cret' })).toEqual({
        method: 'post',
        clientId: 'app',
        clientSecret: 's3cret',
      });
    });

    it('reads client_id alone as a public client (none), an empty secret counting as none', () => {
      expect(credentials({ client_id: 'app' })).toEqual({ method: 'none', clientId: 'app' });
      expect(credentials({ client_id: 'app', client_secret: '' })).toEqual({
        method: 'none',
        clientId: 'app',
      });
      expect(credentials({ client_id: 'app' }, '   ')).toEqual({ method: 'none', clientId: 'app' });
    });

    it('refuses Basic and a client_secret field at once, or two different client ids', () => {
      expect(failure({ client_secret: 's' }, basic('app', 's'))).toEqual([
        'invalid_request',
        'Use either HTTP Basic or client_secret in the body, not both',
      ]);
      expect(failure({ client_id: 'other' }, basic('app', 's'))).toEqual([
        'invalid_request',
        'client_id in the body does not match the Authorization header',
      ]);
    });

    it('refuses no credentials and a malformed Basic header as invalid_client', () => {
      expect(failure({})).toEqual(['invalid_client', 'Client authentication is required']);
      expect(failure({ client_secret: 's' })).toEqual([
        'invalid_client',
        'Client authentication is required',
      ]);
      for (const header of [
        'Bearer abc',
        'Basic !!!',
        basic('', 's'),
        'Basic YXBw',
        basic('%', 's'),
      ])
        expect(failure({}, header)).toEqual([
          'invalid_client',
          'Malformed HTTP Basic client credentials',
        ]);
    });

    it('refuses a repeated client_id or client_secret before anything else', () => {
      expect(failure({ client_id: ['a', 'a'] }, basic('a', 's'))).toEqual([
        'invalid_request',
        'The client_id parameter is repeated or malformed',
      ]);
      expect(failure({ client_secret: ['s', 's'] })).toEqual([
        'invalid_request',
        'The client_secret parameter is repeated or malformed',
      ]);
      expect(failure({ client_id: { x: 'a' } }, 'Basic !!!')[0]).toBe('invalid_request');
    });

    it(`takes a client_id of up to ${CLIENT_ID_MAX_LENGTH} characters; a longer one names no client`, () => {
      const longest = 'c'.repeat(CLIENT_ID_MAX_LENGTH);
      expect(credentials({ client_id: longest }).clientId).toBe(longest);
      const longer = `${longest}c`;
      for (const [body, header] of [
        [{ client_id: longer }, undefined],
        [{ client_id: longer, client_secret: 's' }, undefined],
        [{}, basic(longer, 's')],
      ] as const)
        expect(failure(body, header)).toEqual(['invalid_client', 'Client authentication failed']);
    });
  });
});
