import { AppError } from '../../common/errors/app-error';
import { validateRequest } from '../../common/validation/request-validation';
import { requiredScopes, toUserChange, UserPatch } from './user-patch';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'other';
  }
  return undefined;
};
const patch = (body: unknown): UserPatch => validateRequest(UserPatch, body, 'body');

describe('user-patch', () => {
  it('accepts group and enabled and derives both scopes', () => {
    const body = patch({ group: 't1', enabled: false });
    expect(requiredScopes(body)).toEqual([['user:write'], ['group:write']]);
    expect(toUserChange(body)).toEqual({ group: 't1', enabled: false });
  });

  it.each([
    [[], 'invalid_body'],
    [undefined, 'invalid_body'],
    [{ enabled: 'false' }, 'invalid_body'],
    [{ group: null }, 'invalid_body'],
    [{}, 'empty_body'],
    [{ authCount: 1, enabled: 'x' }, 'unknown_field'],
  ])('rejects %j with %s', (body, code) => {
    expect(codeOf(() => patch(body))).toBe(code);
  });

  it('rejects an unknown group value only after the shape', () => {
    const body = patch({ group: 't6' });
    expect(codeOf(() => toUserChange(body))).toBe('invalid_group');
  });
});
