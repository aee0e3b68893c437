import { request as expressRequest, type Request } from 'express';
import { OAuthError } from './oauth-error';
import { formParams, nonEmptyParam, param, readForm, repeatedParameter, take } from './params';

const NAMES = ['grant_type', 'code', 'client_id'] as const;

/** An Express request with these headers and the body the body reader produced. */
function request(headers: Record<string, string>, body: unknown): Request {
  return Object.assign(Object.create(expressRequest) as Request, { headers, body });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '10' };

function thrown(run: () => unknown): OAuthError {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('request parameters', () => {
  describe('formParams', () => {
    it('keeps the allowed parameters sent once, and nothing else', () => {
      const params = formParams({ grant_type: 'refresh_token', code: 'c', other: 'x' }, NAMES);
      expect(params.values).toEqual({ grant_type: 'refresh_token', code: 'c' });
      expect(params.repeated).toEqual([]);
    });

    it('counts an empty value as omitted (RFC 6749 section 3.1)', () => {
      expect(formParams({ code: '', client_id: 'a' }, NAMES).values).toEqual({ client_id: 'a' });
    });

    it('marks repeated and structured values, whatever their content', () => {
      // The body reader turns `code=a&code=b` into an array and `client_id[x]=a` into an object.
      const params = formParams({ code: ['a', 'b'], client_id: { x: 'a' }, grant_type: ['', ''] }, [
        ...NAMES,
      ]);
      expect(params.values).toEqual({});
      expect(params.repeated).toEqual(['grant_type', 'code', 'client_id']);
    });

    it('lists the allowed parameters sent, whatever their value', () => {
      const body = { grant_type: '', code: ['a', 'b'], client_id: 'a', other: 'x' };
      expect(formParams(body, NAMES).sent).toEqual(['grant_type', 'code', 'client_id']);
      expect(formParams({ code: 'c' }, NAMES).sent).toEqual(['code']);
      expect(formParams(undefined, NAMES).sent).toEqual([]);
    });

    it('ignores repeated parameters outside the allow list', () => {
      expect(formParams({ scope: ['a', 'b'], code: 'c' }, NAMES).repeated).toEqual([]);
    });

    it('reads no inherited property and accepts a missing body', () => {
      const body = Object.create({ code: 'inherited' }) as object;
      expect(formParams(body, NAMES).values).toEqual({});
      expect(formParams(undefined, NAMES).values).toEqual({});
    });

    it('is immutable', () => {
      const params = formParams({ code: 'c' }, NAMES);
      expect(Object.isFrozen(params)).toBe(true);
      expect(Object.isFrozen(params.values)).toBe(true);
      expect(Object.isFrozen(params.repeated)).toBe(true);
      expect(Object.isFrozen(params.sent)).toBe(true);
    });
  });

  describe('param and nonEmptyParam (the same rule, one parameter at a time)', () => {
    it('reads a value sent once; param keeps an empty value, nonEmptyParam omits it', () => {
      expect(param({ state: 's' }, 'state')).toBe('s');
      expect(param({ state: '' }, 'state')).toBe('');
      expect(nonEmptyParam({ state: '' }, 'state')).toBeUndefined();
      expect(param({}, 'state')).toBeUndefined();
    });

    it('refuses a repeated or structured value, or one with a control character, as formParams', () => {
      for (const value of [['a', 'b'], { x: 'a' }, 'a\u0000b', 'a\nb', 'a\u0085']) {
        const fields = { state: value };
        expect(formParams(fields, ['state']).repeated).toEqual(['state']);
        for (const read of [param, nonEmptyParam]) {
          const error = thrown(() => read(fields, 'state'));
          expect([error.error, error.description]).toEqual([
            'invalid_request',
            'The state parameter is repeated or malformed',
          ]);
        }
      }
    });

    it('reads no inherited property', () => {
      const fields = Object.create({ state: 'inherited' }) as Record<string, unknown>;
      expect(param(fields, 'state')).toBeUndefined();
      expect(param({}, 'constructor')).toBeUndefined();
    });
  });

  describe('repeatedParameter and take', () => {
    const params = formParams({ code: ['a', 'b'], client_id: ['x', 'y'], grant_type: 'g' }, NAMES);

    it('names the first repeated parameter of those read, in their order', () => {
      expect(repeatedParameter(params, ['client_id', 'code'])?.description).toBe(
        'The client_id parameter is repeated or malformed',
      );
      expect(repeatedParameter(params, ['code', 'client_id'])?.description).toBe(
        'The code parameter is repeated or malformed',
      );
      expect(repeatedParameter(params, ['grant_type'])).toBeUndefined();
    });

    it('gives the values of the parameters read, or throws invalid_request', () => {
      expect(take(params, ['grant_type']).grant_type).toBe('g');
      const error = thrown(() => take(params, ['grant_type', 'code']));
      expect([error.error, error.status]).toEqual(['invalid_request', 400]);
    });
  });

  describe('readForm', () => {
    it('reads application/x-www-form-urlencoded, with or without a charset', () => {
      expect(readForm(request(FORM, { code: 'c' }), NAMES).values).toEqual({ code: 'c' });
      const utf8 = { ...FORM, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };
      expect(readForm(request(utf8, { code: 'c' }), NAMES).values).toEqual({ code: 'c' });
    });

    it('refuses another media type, and a body without one', () => {
      const json = { 'content-type': 'application/json', 'content-length': '2' };
      const headers: Record<string, string>[] = [json, { 'content-length': '0' }, {}];
      for (const header of headers) {
        const error = thrown(() => readForm(request(header, {}), NAMES));
        expect([error.error, error.description]).toEqual([
          'invalid_request',
          'Content-Type must be application/x-www-form-urlencoded',
        ]);
      }
    });
  });
});
