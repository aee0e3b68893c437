import { userIdNumber } from './userinfo.service';

describe('userIdNumber', () => {
  it('returns ids up to 2^53 - 1 exactly', () => {
    expect(userIdNumber('1')).toBe(1);
    expect(userIdNumber('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses larger ids instead of rounding them onto another id', () => {
    expect(() => userIdNumber('9007199254740992')).toThrow('beyond the JSON-safe integer range');
    expect(() => userIdNumber('9007199254740993')).toThrow('beyond the JSON-safe integer range');
  });
});
