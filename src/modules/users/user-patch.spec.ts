import { AppError } from '../../common/errors/app-error';
import { parsePatchShape, requiredScopes, toUserPatch } from './user-patch';

const JSON_TYPE = 'application/json; charset=utf-8';
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
  return undefined;
};

describe('user-patch', () => {
  it('accepts group and enabled and derives both scopes', () => {
    const shape = parsePatchShape({ group: 't1', enabled: false }, JSON_TYPE);
    expect(requiredScopes(shape)).toEqual([['user:write'], ['group:write']]);
    expect(toUserPatch(shape)).toEqual({ group: 't1', enabled: false });
  });

  it.each([
    [[], JSON_TYPE, 'invalid_body'],
    [{ enabled: true }, 'text/plain', 'invalid_body'],
    [{ enabled: 'false' }, JSON_TYPE, 'invalid_body'],
    [{}, JSON_TYPE, 'empty_body'],
    [{ authCount: 1 }, JSON_TYPE, 'unknown_field'],
  ])('rejects %j (%s) with %s', (body, type, code) => {
    expect(codeOf(() => parsePatchShape(body, type))).toBe(code);
  });

  it('rejects an unknown group value', () => {
    expect(codeOf(() => toUserPatch({ group: 't6' }))).toBe('invalid_group');
  });
});
