import { ValidationError } from 'class-validator';
import { requestError } from './request-errors';

const error = (
  property: string,
  constraints?: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError => Object.assign(new ValidationError(), { property, constraints, children });

const unknown = (property: string) =>
  error(property, { whitelistValidation: `property ${property} should not exist` });

describe(requestError.name, () => {
  it('maps unknown body fields to unknown_field with all their names, whatever else failed', () => {
    const mapped = requestError(
      [error('enabled', { isBoolean: 'enabled must be a boolean' }), unknown('a'), unknown('b')],
      'body',
    );
    expect(mapped.status).toBe(400);
    expect(mapped.toBody()).toEqual({
      error: 'unknown_field',
      message: 'Unknown fields: a, b',
      fields: ['a', 'b'],
    });
  });

  it('maps a wrong body value to invalid_body with the first constraint message', () => {
    expect(
      requestError([error('enabled', { isBoolean: 'enabled must be a boolean' })], 'body').toBody(),
    ).toEqual({ error: 'invalid_body', message: 'enabled must be a boolean' });
  });

  it('names the path of a nested failure', () => {
    const nested = error('settings', undefined, [
      error('redirectUris', { isArray: 'redirectUris must be an array' }),
    ]);
    expect(requestError([nested], 'body').toBody()).toEqual({
      error: 'invalid_body',
      message: 'settings: redirectUris must be an array',
    });
  });

  it('maps every query failure to invalid_query, unknown names first', () => {
    expect(
      requestError(
        [error('page', { min: 'page must be a positive integer' }), unknown('x')],
        'query',
      ).toBody(),
    ).toEqual({ error: 'invalid_query', message: 'Unknown query parameter: x' });
    expect(
      requestError([error('page', { min: 'page must be a positive integer' })], 'query').toBody(),
    ).toEqual({ error: 'invalid_query', message: 'page must be a positive integer' });
  });
});
