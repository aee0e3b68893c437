import {
  ArgumentsHost,
  BadRequestException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { BodyError } from '../http/request-body';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { AppError } from './app-error';
import { ErrorCode } from './error-code';

/** Runs the filter on one exception and returns what it would send. */
/** What the filter sent; `headers` stays undefined (ignored by toEqual) unless one was set. */
interface Sent {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

function render(exception: unknown): Sent {
  const sent: Sent = { status: 0, body: {} };
  const response = {
    headersSent: false,
    setHeader(name: string, value: string) {
      sent.headers = { ...sent.headers, [name]: value };
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
    },
  };
  const request = {
    method: 'GET',
    path: '/api/v1/app/users',
    originalUrl: '/api/v1/app/users',
    id: 'req-1',
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  const filter = new AllExceptionsFilter();
  // Keep the test output clean; logging is exercised, not asserted.
  (filter as unknown as { logger: unknown }).logger = {
    error: () => undefined,
    warn: () => undefined,
  };
  filter.catch(exception, host);
  return sent;
}

describe(AllExceptionsFilter.name, () => {
  describe('catch', () => {
    it('renders AppError with its code, message and extra fields', () => {
      const error = new AppError(ErrorCode.InsufficientScope, 'Missing scope', {
        required_any_of: ['user:read'],
        granted_scopes: [],
      });
      expect(render(error)).toEqual({
        status: 403,
        body: {
          error: 'insufficient_scope',
          message: 'Missing scope',
          required_any_of: ['user:read'],
          granted_scopes: [],
        },
      });
    });

    it('maps framework exceptions to section 7 bodies without echoing their text', () => {
      expect(render(new NotFoundException('Cannot GET /secret?token=abc'))).toEqual({
        status: 404,
        body: { error: 'not_found', message: 'No such route' },
      });
      expect(render(new BadRequestException('raw parser text'))).toEqual({
        status: 400,
        body: { error: 'invalid_request', message: 'Bad request' },
      });
      expect(render(new PayloadTooLargeException()).body.error).toBe('payload_too_large');
    });

    it('answers a body refused before routing in the section 7 format', () => {
      expect(render(new BodyError('too_large'))).toMatchObject({
        status: 413,
        body: { error: 'payload_too_large', message: 'Request body too large (limit 100 kB)' },
      });
      expect(render(new BodyError('invalid_utf8')).body.error).toBe('invalid_body');
      expect(render(new BodyError('unsupported_encoding')).status).toBe(415);
    });

    it('answers an unreachable database with 503 database_unavailable and Retry-After', () => {
      const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      for (const error of [refused, new QueryFailedError('SELECT 1', [], refused)]) {
        expect(render(error)).toEqual({
          status: 503,
          body: { error: 'database_unavailable', message: 'The database is unavailable' },
          headers: { 'Retry-After': '5' },
        });
      }
    });

    it('answers a database failure with query_failed and no SQL or parameters', () => {
      const failure = new QueryFailedError(
        'SELECT * FROM api_keys WHERE key_hash = $1',
        ['deadbeef'],
        new Error('boom'),
      );
      const { status, body } = render(failure);
      expect(status).toBe(500);
      expect(body).toEqual({ error: 'query_failed', message: 'Internal query failure' });
    });

    it('answers anything else with internal_error and no stack', () => {
      const { status, body } = render(new Error('secret svc_live_abc at /src/x.ts:1'));
      expect(status).toBe(500);
      expect(body).toEqual({ error: 'internal_error', message: 'Internal server error' });
      expect(render('a thrown string')).toEqual({
        status: 500,
        body: { error: 'internal_error', message: 'Internal server error' },
      });
    });
  });
});
