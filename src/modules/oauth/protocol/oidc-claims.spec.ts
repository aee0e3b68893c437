import { isOpenId, standardClaims } from './oidc-claims';

const alice = {
  username: 'alice',
  nickname: 'Alice',
  avatar: 'https://img.example/a.png',
  email: 'alice@example.org',
  email_verified: true,
};

describe('standardClaims', () => {
  it('releases nothing for openid alone', () => {
    expect(standardClaims('openid', alice)).toEqual({});
  });
  it('releases the profile claims for profile', () => {
    expect(standardClaims('openid profile', alice)).toEqual({
      name: 'Alice',
      preferred_username: 'alice',
      picture: 'https://img.example/a.png',
    });
  });
  it('releases the email claims for email', () => {
    expect(standardClaims('openid email', alice)).toEqual({
      email: 'alice@example.org',
      email_verified: true,
    });
  });
  it('releases both for read, with name falling back to the username and no empty picture', () => {
    expect(standardClaims('openid read', { ...alice, nickname: '', avatar: '' })).toEqual({
      name: 'alice',
      preferred_username: 'alice',
      email: 'alice@example.org',
      email_verified: true,
    });
  });
  it('omits the email claims when the user has no address', () => {
    expect(standardClaims('openid email', { ...alice, email: '' })).toEqual({});
  });
});

describe('isOpenId', () => {
  it('finds openid among the scopes only as a whole name', () => {
    expect(isOpenId('openid read')).toBe(true);
    expect(isOpenId('read profile')).toBe(false);
  });
});
