import { AppError } from '../../common/errors/app-error';
import { validateRequest } from '../../common/validation/request-validation';
import { EventListQuery, parseRfc3339 } from './event-query';

const parseEventListQuery = (query: Record<string, unknown>): EventListQuery =>
  validateRequest(EventListQuery, query, 'query');

describe('event-query', () => {
  describe('parseRfc3339', () => {
    it.each([
      ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
      ['2030-01-01t02:00:00.5+02:00', '2030-01-01T00:00:00.500Z'],
      ['2028-02-29T23:59:59-00:30', '2028-03-01T00:29:59.000Z'],
    ])('parses %s', (text, iso) => {
      expect(parseRfc3339(text)?.toISOString()).toBe(iso);
    });

    it.each([
      '2030-01-01',
      '2030-01-01T00:00:00',
      '2030-02-29T00:00:00Z',
      '2030-01-01T24:00:00Z',
      'now',
    ])('refuses %s', (text) => {
      expect(parseRfc3339(text)).toBeUndefined();
    });
  });

  describe('EventListQuery', () => {
    it('defaults and clamps the limit', () => {
      expect(parseEventListQuery({})).toEqual({ limit: 50 });
      expect(parseEventListQuery({ limit: '500', eventType: 'token_issued' })).toEqual({
        limit: 200,
        eventType: 'token_issued',
      });
    });

    it('rejects a malformed before', () => {
      expect(() => parseEventListQuery({ before: 'yesterday' })).toThrow(AppError);
    });

    it('reads the (createdAt, id) cursor and the forward cursor', () => {
      expect(parseEventListQuery({ before: '2030-01-01t00:00:00z', beforeId: '12' })).toEqual({
        limit: 50,
        before: '2030-01-01T00:00:00Z',
        beforeId: '12',
      });
      expect(parseEventListQuery({ after: '0', eventType: 'token_issued' })).toEqual({
        limit: 50,
        after: '0',
        eventType: 'token_issued',
      });
    });

    it.each([
      [{ beforeId: '3' }, 'beforeId needs before'],
      [{ before: '2030-01-01T00:00:00Z', beforeId: '0' }, 'beforeId must be an event id'],
      [{ after: '-1' }, 'after must be an event id'],
      [{ after: '1', before: '2030-01-01T00:00:00Z' }, 'after cannot be combined'],
      [{ after: '1', beforeId: '2' }, 'beforeId needs before'],
      [{ after: '1234567890123456789' }, 'after must be an event id'],
      [{ limit: ['1', '2'] }, 'give each parameter once'],
    ])('rejects %j', (query, message) => {
      expect(() => parseEventListQuery(query)).toThrow(message);
    });
  });
});
