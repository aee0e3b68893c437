import { UpstreamError } from '../providers/upstream-provider';
import { exchangeCode, type CodeExchange } from './authorization-code';

const TOKEN_URL = 'https://provider.example/oauth/token';

const form = (over: Partial<CodeExchange> = {}): CodeExchange => ({
  provider: 'Example',
  tokenUrl: TOKEN_URL,
  send: 'form',
  params: { grant_type: 'authorization_code', code: 'c0de', client_id: 'id', client_secret: 's' },
  ...over,
});

/** The provider's answer to the next fetch; the request is kept for the assertions. */
function answer(status: number, body: string): jest.SpyInstance {
  return jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(body, { status }));
}

async function failure(exchange: CodeExchange): Promise<UpstreamError> {
  const error: unknown = await exchangeCode(exchange).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error('expected an UpstreamError');
  return error;
}

describe('exchangeCode', () => {
  afterEach(() => jest.restoreAllMocks());

  describe('success', () => {
    it('POSTs the form with Accept: application/json and answers the token and the body', async () => {
      const fetch = answer(200, JSON.stringify({ access_token: 'at', token_type: 'bearer' }));

      await expect(exchangeCode(form())).resolves.toEqual({
        accessToken: 'at',
        body: { access_token: 'at', token_type: 'bearer' },
      });

      const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
      expect(url).toBe(TOKEN_URL);
      expect(init).toMatchObject({
        method: 'POST',
        redirect: 'error',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
      });
      expect((init.body as URLSearchParams).toString()).toBe(
        'grant_type=authorization_code&code=c0de&client_id=id&client_secret=s',
      );
    });

    it('GETs with the parameters as the query, replacing the configured one (QQ)', async () => {
      const fetch = answer(200, JSON.stringify({ access_token: 'at' }));

      await exchangeCode(
        form({ send: 'query', tokenUrl: `${TOKEN_URL}?old=1`, params: { code: 'c', fmt: 'json' } }),
      );

      const [url, init] = fetch.mock.calls[0] as [URL, RequestInit];
      expect(url.href).toBe(`${TOKEN_URL}?code=c&fmt=json`);
      expect(init.method).toBeUndefined();
      expect(init.body).toBeUndefined();
    });

    it('takes a numeric access_token as text', async () => {
      answer(200, JSON.stringify({ access_token: 12345 }));
      await expect(exchangeCode(form())).resolves.toMatchObject({ accessToken: '12345' });
    });
  });

  describe('HTTP errors', () => {
    it('refuses an RFC 6749 error answer, naming the error code', async () => {
      answer(400, JSON.stringify({ error: 'invalid_grant', error_description: 'expired' }));
      const error = await failure(form());
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('Example refused the code: invalid_grant');
    });

    it('refuses a non-200 answer without an error field, even one with a token', async () => {
      answer(401, JSON.stringify({ access_token: 'at' }));
      const error = await failure(form());
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('Example gave no access token');
    });

    it('judges the body alone when requireOk is false (QQ)', async () => {
      answer(401, JSON.stringify({ access_token: 'at' }));
      await expect(exchangeCode(form({ requireOk: false }))).resolves.toMatchObject({
        accessToken: 'at',
      });
    });

    it('makes a 5xx and an unreachable provider unavailable', async () => {
      answer(503, JSON.stringify({ error: 'temporarily_unavailable' }));
      expect((await failure(form())).reason).toBe('unavailable');

      jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
      const error = await failure(form());
      expect(error.reason).toBe('unavailable');
      expect(error.message).toBe('provider.example could not be reached');
    });
  });

  describe('an error in a 200 body', () => {
    it("refuses it (GitHub's bad_verification_code), bounded to 64 characters", async () => {
      answer(200, JSON.stringify({ error: `bad_verification_code${'x'.repeat(100)}` }));
      const error = await failure(form({ provider: 'GitHub' }));
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe(
        `GitHub refused the code: ${`bad_verification_code${'x'.repeat(100)}`.slice(0, 64)}`,
      );
    });

    it("reads the provider's own error shape through errorOf", async () => {
      answer(200, JSON.stringify({ error: 100019, access_token: 'at' }));
      const errorOf = (body: Record<string, unknown>): string | null =>
        typeof body.error === 'number' ? `error ${body.error}` : null;
      const error = await failure(form({ provider: 'QQ', errorOf }));
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('QQ refused the code: error 100019');
    });

    it('ignores a non-string error by default (RFC 6749 errors are strings)', async () => {
      answer(200, JSON.stringify({ error: 0, access_token: 'at' }));
      await expect(exchangeCode(form())).resolves.toMatchObject({ accessToken: 'at' });
    });
  });

  describe('missing access_token', () => {
    it.each([
      ['absent', { token_type: 'bearer' }],
      ['empty', { access_token: '' }],
      ['not a scalar', { access_token: { value: 'at' } }],
    ])('refuses a 200 answer whose access_token is %s', async (_case, body) => {
      answer(200, JSON.stringify(body));
      const error = await failure(form());
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('Example gave no access token');
    });
  });

  describe('non-JSON', () => {
    it('refuses a form-encoded answer (GitHub without the Accept header)', async () => {
      answer(200, 'access_token=at&token_type=bearer');
      const error = await failure(form());
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('provider.example did not answer JSON');
    });

    it('refuses JSON that is not an object', async () => {
      answer(200, JSON.stringify(['at']));
      const error = await failure(form());
      expect(error.reason).toBe('invalid_response');
      expect(error.message).toBe('provider.example did not answer a JSON object');
    });
  });
});
