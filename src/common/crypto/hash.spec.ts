import { createHash } from 'node:crypto';
import { sha256Hex } from './hash';
import { randomBase62 } from './random';

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const key = 'svc_live_' + randomBase62(32);
    expect(sha256Hex(key)).toBe(createHash('sha256').update(key).digest('hex'));
    // Non-ASCII text is hashed as its UTF-8 bytes, as createHash's update(text, 'utf8') does.
    const text = 'pâté 密码 🔑';
    expect(sha256Hex(text)).toBe(
      createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
    );
  });
});
