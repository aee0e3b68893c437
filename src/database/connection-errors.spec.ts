import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/connection-errors';

const withCode = (code: string, message = 'failure'): Error =>
  Object.assign(new Error(message), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a dual-stack refusal', new AggregateError([withCode('ECONNREFUSED')], 'connect')],
    ['a connection closed mid-query', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['a query on a dead network', new Error('Query read timeout')],
    ['an administrator shutdown (57P01)', withCode('57P01')],
    ['a server still starting (57P03)', withCode('57P03')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection failure (08006)', withCode('08006')],
    ['a wrapped query failure', new QueryFailedError('SELECT 1', [], withCode('57P01'))],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error (42601)', new QueryFailedError('SELEC', [], withCode('42601'))],
    ['a unique violation (23505)', withCode('23505')],
    ['a cancelled statement (57014)', withCode('57014')],
    ['a plain bug', new TypeError('x is undefined')],
    ['a thrown string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('does not take %s for an outage', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
