import { Aead } from './aead';

describe('Aead (AES-256-GCM, HKDF-derived key per purpose)', () => {
  const secret = 'a-session-secret-of-sufficient-length';
  const box = new Aead(secret, 'purpose one', 'v1.');

  it('opens what it sealed, with a fresh IV each time', () => {
    const a = box.seal('hello');
    const b = box.seal('hello');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(box.open(a)).toBe('hello');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('refuses another purpose, another secret or other associated data', () => {
    const sealed = box.seal('hello', 'row-1');
    expect(box.open(sealed, 'row-1')).toBe('hello');
    expect(box.open(sealed, 'row-2')).toBeNull();
    expect(box.open(sealed)).toBeNull();
    expect(new Aead(secret, 'purpose two', 'v1.').open(sealed, 'row-1')).toBeNull();
    expect(
      new Aead('another-secret-of-sufficient-len', 'purpose one', 'v1.').open(sealed, 'row-1'),
    ).toBeNull();
  });

  it('refuses tampered, truncated, foreign, oversized or non-string input', () => {
    const sealed = box.seal('hello');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 20] ^= 1;
    expect(box.open(`v1.${raw.toString('base64url')}`)).toBeNull();
    expect(box.open('v1.AAAA')).toBeNull();
    expect(box.open(`v2.${sealed.slice(3)}`)).toBeNull();
    expect(box.open(sealed, undefined, sealed.length - 1)).toBeNull();
    expect(box.open(42)).toBeNull();
    expect(box.open(undefined)).toBeNull();
  });
});
