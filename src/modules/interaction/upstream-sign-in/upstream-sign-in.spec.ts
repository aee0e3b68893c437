import { authorizeQueryOf } from './direct-entry';
import { AttemptSealer, type UpstreamAttempt } from './upstream-attempt';

const BASE = 'https://id.example';

describe('authorizeQueryOf', () => {
  it("reads the query of this service's /oauth2/authorize URL, absolute or relative", () => {
    expect(authorizeQueryOf(`${BASE}/oauth2/authorize?client_id=c&state=s`, BASE)).toEqual({
      client_id: 'c',
      state: 's',
    });
    expect(authorizeQueryOf('/oauth2/authorize?client_id=c', BASE)).toEqual({ client_id: 'c' });
  });

  it('keeps a repeated parameter visible, so the authorize steps refuse it', () => {
    expect(authorizeQueryOf(`${BASE}/oauth2/authorize?scope=a&scope=b`, BASE)).toEqual({
      scope: ['a', 'b'],
    });
  });

  it.each([
    'https://evil.example/oauth2/authorize?client_id=c',
    '//evil.example/oauth2/authorize',
    'https://id.example.evil.example/oauth2/authorize',
    'http://id.example/oauth2/authorize',
    `${BASE}/oauth2/authorize/../login`,
    `${BASE}/oauth2/login?request=x`,
    `${BASE}/oauth2/authorizex`,
    'https://user@id.example/oauth2/authorize',
    'javascript:alert(1)',
    '',
  ])('refuses %s', (redirect) => {
    expect(authorizeQueryOf(redirect, BASE)).toBeNull();
  });

  it('refuses a non-string redirect', () => {
    expect(authorizeQueryOf(['a', 'b'], BASE)).toBeNull();
    expect(authorizeQueryOf(undefined, BASE)).toBeNull();
  });
});

describe(AttemptSealer.name, () => {
  const attempt: UpstreamAttempt = {
    purpose: 'sign-in',
    providerId: 'github',
    state: 'st',
    nonce: 'no',
    codeVerifier: 'cv',
    request: 'v1.sealed',
    exp: 1_900_000_000,
  };

  it('opens what it sealed', () => {
    const sealer = new AttemptSealer('a'.repeat(32));
    expect(sealer.open(sealer.seal(attempt))).toEqual(attempt);
  });

  it('refuses another key, a tampered or truncated value, and garbage', () => {
    const sealer = new AttemptSealer('a'.repeat(32));
    const sealed = sealer.seal(attempt);
    expect(new AttemptSealer('b'.repeat(32)).open(sealed)).toBeNull();
    // A character in the middle of the base64url body: all six of its bits are data (the last
    // character's low bits may be padding, and changing only those changes nothing).
    const at = Math.floor(sealed.length / 2);
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(flipped).not.toBe(sealed);
    expect(sealer.open(flipped)).toBeNull();
    expect(sealer.open(sealed.slice(0, 20))).toBeNull();
    expect(sealer.open('u1.garbage')).toBeNull();
    expect(sealer.open(42)).toBeNull();
  });
});
