import { constantTimeEqual } from './constant-time';
import { sha256Hex } from './hash';

describe('constantTimeEqual', () => {
  it('compares digests', () => {
    expect(constantTimeEqual(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(constantTimeEqual(sha256Hex('a'), sha256Hex('b'))).toBe(false);
    expect(constantTimeEqual('ab', 'abcd')).toBe(false);
  });

  it('compares bytes', () => {
    expect(constantTimeEqual(Buffer.from([1, 2, 3]), Buffer.from([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(Buffer.from([1, 2, 3]), Buffer.from([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(Buffer.from([1, 2]), Buffer.from([1, 2, 3]))).toBe(false);
  });

  it('compares text as UTF-8, whatever its length', () => {
    expect(constantTimeEqual('é', 'é')).toBe(true);
    expect(constantTimeEqual('é', 'e')).toBe(false);
  });
});
