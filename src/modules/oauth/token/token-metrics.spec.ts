import { HttpException } from '@nestjs/common';
import { request as expressRequest, type Request } from 'express';
import { NOOP_METRICS, type Metrics, type TokenGrantLabel } from '../../../common/metrics/metrics';
import { OAuthError } from '../protocol/oauth-error';
import { FORM_TYPE } from '../../../common/http/params';
import { formParams } from '../protocol/params';
import { countTokenRequest, tokenGrantLabel } from './token-metrics';
import { GRANT_TYPES, TOKEN_PARAMETERS } from './token.service';

/** The label of a form body as the body reader parsed it. */
const label = (body: unknown): TokenGrantLabel =>
  tokenGrantLabel(formParams(body, TOKEN_PARAMETERS));

/** Metrics on, recording each count of the token endpoint. */
function recording(): { metrics: Metrics; counts: [TokenGrantLabel, string][] } {
  const counts: [TokenGrantLabel, string][] = [];
  const metrics = Object.assign(Object.create(NOOP_METRICS) as Metrics, {
    enabled: true,
    tokenRequest: (grant: TokenGrantLabel, outcome: string) => counts.push([grant, outcome]),
  });
  return { metrics, counts };
}

/** An Express request: a form with the body the reader produced, or (null) one without a body. */
function request(body: Record<string, unknown> | null): Request {
  const headers = body === null ? {} : { 'content-type': FORM_TYPE, 'content-length': '10' };
  return Object.assign(Object.create(expressRequest) as Request, {
    headers,
    body: body ?? undefined,
  });
}

const SERVED = [...GRANT_TYPES.keys()];

describe('token endpoint metric', () => {
  describe('grant_type label', () => {
    it("is one of the grant registry's names, 'missing' or 'unsupported'", () => {
      const bodies: unknown[] = [
        ...SERVED.map((grant_type) => ({ grant_type })),
        undefined,
        {},
        { grant_type: '' },
        { grant_type: 'password' },
        { grant_type: [SERVED[0], SERVED[0]] },
        { grant_type: { x: SERVED[0] } },
        { grant_type: `${SERVED[0]}\u0000` },
      ];
      const labels = new Set(bodies.map(label));
      expect([...labels].sort()).toEqual([...SERVED, 'missing', 'unsupported'].sort());
    });

    it('names each grant of the registry by its grant_type', () => {
      for (const grant of SERVED) expect(label({ grant_type: grant, code: 'c' })).toBe(grant);
    });

    it('is missing when no grant_type was sent', () => {
      expect(label({ code: 'c' })).toBe('missing');
      expect(label(undefined)).toBe('missing');
    });

    it('is unsupported for anything else sent: another value, empty, repeated, structured', () => {
      for (const grant_type of ['password', '', [SERVED[0], SERVED[0]], { x: SERVED[0] }])
        expect([grant_type, label({ grant_type })]).toEqual([grant_type, 'unsupported']);
    });
  });

  describe('countTokenRequest', () => {
    const form = { grant_type: 'refresh_token', refresh_token: 'r' };

    it('hands the endpoint the form it read and counts ok', async () => {
      const { metrics, counts } = recording();
      const answer = jest.fn((params: { values: object }) => Promise.resolve(params.values));
      await expect(countTokenRequest(metrics, request(form), answer)).resolves.toEqual(form);
      expect(counts).toEqual([['refresh_token', 'ok']]);
    });

    it('counts a failure by the error the client receives, and rethrows it', async () => {
      const failures: [Error, string][] = [
        [new OAuthError('invalid_grant', 'x'), 'invalid_grant'],
        [new HttpException('x', 413), 'invalid_request'],
        [new Error('x'), 'server_error'],
      ];
      for (const [failure, error] of failures) {
        const { metrics, counts } = recording();
        const answer = () => Promise.reject(failure);
        await expect(countTokenRequest(metrics, request(form), answer)).rejects.toBe(failure);
        expect(counts).toEqual([['refresh_token', error]]);
      }
    });

    it('counts a body that is not a form as missing invalid_request, before the endpoint', async () => {
      const { metrics, counts } = recording();
      const answer = jest.fn(() => Promise.resolve('never'));
      await expect(countTokenRequest(metrics, request(null), answer)).rejects.toThrow(
        'Content-Type must be application/x-www-form-urlencoded',
      );
      expect(answer).not.toHaveBeenCalled();
      expect(counts).toEqual([['missing', 'invalid_request']]);
    });

    it('counts nothing when metrics are off', async () => {
      const counted = jest.spyOn(NOOP_METRICS, 'tokenRequest');
      await countTokenRequest(NOOP_METRICS, request(form), () => Promise.resolve('ok'));
      await expect(
        countTokenRequest(NOOP_METRICS, request(form), () => Promise.reject(new Error('x'))),
      ).rejects.toThrow('x');
      expect(counted).not.toHaveBeenCalled();
      counted.mockRestore();
    });
  });
});
