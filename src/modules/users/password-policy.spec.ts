import { MAX_PASSWORD_LENGTH, passwordWeakness } from './password-policy';

const owner = { username: 'alice', email: 'alice.liddell@example.com' };

describe('passwordWeakness', () => {
  it('accepts a long passphrase and a strong random password', async () => {
    expect(await passwordWeakness('correct horse battery staple', owner)).toBeNull();
    expect(await passwordWeakness('vT7#qL2!xR9m', owner)).toBeNull();
  });

  it('refuses fewer than 8 characters, counting characters, not bytes', async () => {
    const tooShort = { kind: 'too_short', min: 8 };
    expect(await passwordWeakness('Xq7#pL2', owner)).toEqual(tooShort);
    // Seven emoji are 14 UTF-16 units and 28 bytes, but seven characters.
    expect(await passwordWeakness('🔑🐢🌵🎲🧩🛶🪁', owner)).toEqual(tooShort);
  });

  it('refuses more than the maximum length', async () => {
    expect(await passwordWeakness('a1!B'.repeat(MAX_PASSWORD_LENGTH / 4 + 1), owner)).toEqual({
      kind: 'too_long',
      max: 256,
    });
  });

  it.each(['password1', 'qwertyuiop', 'iloveyou2', 'P@ssw0rd!', '123456789a'])(
    'refuses a password of the breach lists: %s',
    async (password) => {
      expect(await passwordWeakness(password, owner)).toMatchObject({ kind: 'guessable' });
    },
  );

  it("gives zxcvbn's reason as its key, for the pages to word in their language", async () => {
    expect(await passwordWeakness('password1', owner)).toEqual({
      kind: 'guessable',
      warning: 'common',
    });
    expect(await passwordWeakness('qwertyuiop', owner)).toEqual({
      kind: 'guessable',
      warning: 'topHundred',
    });
  });

  it("refuses a password built from the person's own username or email", async () => {
    expect(await passwordWeakness('alice2024', owner)).toMatchObject({ kind: 'guessable' });
    const wombat = { username: 'wombatcarrot', email: 'wombat@example.com' };
    expect(await passwordWeakness('wombatcarrot31', wombat)).toMatchObject({ kind: 'guessable' });
    // The same password is fine for someone else.
    expect(await passwordWeakness('wombatcarrot31', owner)).toBeNull();
  });
});
