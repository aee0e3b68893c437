import { hashPassword, verifyPassword } from './password';

describe('password', () => {
  describe('hashPassword', () => {
    it('uses scrypt N = 2^15, r = 8, p = 3 by default (PASSWORD_HASH_COST=15)', async () => {
      const stored = await hashPassword('correct horse battery staple');
      expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
      await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
      await expect(verifyPassword('correct horse battery stapler', stored)).resolves.toBe(false);
    });

    it('takes log2(N) from the cost, and the stored hash carries it for verification', async () => {
      const stored = await hashPassword('a long passphrase', 10);
      expect(stored).toMatch(/^scrypt\$1024\$8\$3\$/);
      await expect(verifyPassword('a long passphrase', stored)).resolves.toBe(true);
      await expect(verifyPassword('a long passphrasE', stored)).resolves.toBe(false);
    });
  });
});
