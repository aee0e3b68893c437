import { SecretBox } from './secret-box';

describe('SecretBox (upstream client secrets at rest)', () => {
  const box = new SecretBox('a-session-secret-of-sufficient-length');

  it('round-trips, with a fresh IV each time and no plaintext in the ciphertext', () => {
    const a = box.seal('client-secret-value', 'github');
    const b = box.seal('client-secret-value', 'github');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('client-secret-value');
    expect(box.open(a, 'github')).toBe('client-secret-value');
  });

  it('refuses another provider id, another key, a tampered or foreign text', () => {
    const sealed = box.seal('s3cret', 'github');
    expect(() => box.open(sealed, 'google')).toThrow();
    expect(() =>
      new SecretBox('another-session-secret-value-here').open(sealed, 'github'),
    ).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`, 'github')).toThrow();
    expect(() => box.open('plain-text', 'github')).toThrow();
    expect(() => box.open('v1.AAAA', 'github')).toThrow();
  });
});
