import { MAX_PASSWORD_LENGTH, passwordProblem } from './password-policy';

const owner = { username: 'alice', email: 'alice.liddell@example.com' };

describe('passwordProblem', () => {
  it('accepts a long passphrase and a strong random password', async () => {
    expect(await passwordProblem('correct horse battery staple', owner)).toBeNull();
    expect(await passwordProblem('vT7#qL2!xR9m', owner)).toBeNull();
  });

  it('refuses fewer than 8 characters, counting characters, not bytes', async () => {
    expect(await passwordProblem('Xq7#pL2', owner)).toBe('Use at least 8 characters.');
    // Seven emoji are 14 UTF-16 units and 28 bytes, but seven characters.
    expect(await passwordProblem('🔑🐢🌵🎲🧩🛶🪁', owner)).toBe('Use at least 8 characters.');
  });

  it('refuses more than the maximum length', async () => {
    expect(await passwordProblem('a1!B'.repeat(MAX_PASSWORD_LENGTH / 4 + 1), owner)).toMatch(
      /at most 256/,
    );
  });

  it.each(['password1', 'qwertyuiop', 'iloveyou2', 'P@ssw0rd!', '123456789a'])(
    'refuses a password of the breach lists: %s',
    async (password) => {
      expect(await passwordProblem(password, owner)).toMatch(/^This password is too easy to guess/);
    },
  );

  it("refuses a password built from the person's own username or email", async () => {
    expect(await passwordProblem('alice2024', owner)).toMatch(/too easy to guess/);
    const wombat = { username: 'wombatcarrot', email: 'wombat@example.com' };
    expect(await passwordProblem('wombatcarrot31', wombat)).toMatch(/too easy to guess/);
    // The same password is fine for someone else.
    expect(await passwordProblem('wombatcarrot31', owner)).toBeNull();
  });
});
