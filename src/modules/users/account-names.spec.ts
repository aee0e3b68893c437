import { emailKey, normalEmail } from './account-names';

describe('emailKey (the one form addresses are stored and compared in)', () => {
  it('makes the KELVIN SIGN the letter k, as the stored form of kate@ has it', () => {
    expect(emailKey('\u212Aate@example.org')).toBe('kate@example.org');
    expect(emailKey('kate@example.org')).toBe('kate@example.org');
  });

  it('folds compatibility forms (full-width letters of an input method) and canonical ones', () => {
    expect(emailKey('ｋａｔｅ@ＥＸＡＭＰＬＥ.org')).toBe('kate@example.org');
    expect(emailKey('cafe\u0301@example.org')).toBe('caf\u00e9@example.org');
    expect(emailKey('\u212Bngstr\u00f6m@example.org')).toBe('\u00e5ngstr\u00f6m@example.org');
  });

  it('trims and lower-cases the whole address, as every stored address already is', () => {
    expect(emailKey('  Alice@Example.ORG \n')).toBe('alice@example.org');
    expect(emailKey('\u00c4rger@Example.de')).toBe('\u00e4rger@example.de');
  });

  it('is its own form (a stored address compares equal to itself)', () => {
    for (const typed of ['\u212Aate@x.org', 'İnci@x.org', 'ﬁle@x.org', 'Straße@x.org', 'ǅ@x.org']) {
      const key = emailKey(typed);
      expect(emailKey(key)).toBe(key);
      expect(key.normalize('NFKC')).toBe(key);
    }
  });

  it('answers null from normalEmail for what is not an address', () => {
    expect(normalEmail('not-an-address')).toBeNull();
    expect(normalEmail(' \u212Aate@example.org ')).toBe('kate@example.org');
  });
});
