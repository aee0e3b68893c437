import { AppError } from '../../common/errors/app-error';
import { validateRequest } from '../../common/validation/request-validation';
import { likeSubstring, parseUserId, UserListQuery } from './user-query';

const parseUserListQuery = (query: Record<string, unknown>): UserListQuery =>
  validateRequest(UserListQuery, query, 'query');

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
  return undefined;
};

describe('user-query', () => {
  describe('UserListQuery', () => {
    it('applies defaults', () => {
      expect(parseUserListQuery({})).toEqual({ page: 1, pageSize: 20 });
    });

    it('clamps pageSize above 100, keeps valid values and lower-cases the keyword', () => {
      expect(
        parseUserListQuery({
          pageSize: '250',
          page: '3',
          keyword: 'AbC',
          group: 't2',
          enabled: 'false',
        }),
      ).toEqual({
        page: 3,
        pageSize: 100,
        keyword: 'abc',
        group: 't2',
        enabled: false,
      });
    });

    it.each([
      { page: '0' },
      { pageSize: 'abc' },
      { enabled: 'maybe' },
      { group: 'x' },
      { page: ['1', '2'] },
      { page: '1000000001' },
      { keyword: 'k'.repeat(255) },
      { sort: 'id' },
    ])('rejects %j as invalid_query', (query) => {
      expect(codeOf(() => parseUserListQuery(query))).toBe('invalid_query');
    });
  });

  describe('parseUserId', () => {
    it('normalizes decimal ids within bigint range', () => {
      expect(parseUserId('0042')).toBe('42');
      expect(parseUserId('9223372036854775807')).toBe('9223372036854775807');
    });

    it.each(['', 'x', '-1', '9223372036854775808', '1 '])('rejects %j', (raw) => {
      expect(codeOf(() => parseUserId(raw))).toBe('invalid_user_id');
    });
  });

  describe('likeSubstring', () => {
    it('escapes LIKE metacharacters', () => {
      expect(likeSubstring('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
    });
  });
});
