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

  it('takes only addresses delivered exactly as written: no quotes, comments, lists or IP literals', () => {
    for (const address of [
      'dup@evil.org,',
      '"dup"@evil.org',
      '(c)dup@evil.org',
      'dup(c)@evil.org',
      'dup@[127.0.0.1]',
      'dup@127.0.0.1',
      'Vic <vic@evil.org>',
      'a,b@evil.org',
      'a;b@evil.org',
      'a..b@evil.org',
      '.a@evil.org',
      'a.@evil.org',
      'a@-evil.org',
      'a@evil-.org',
      'a@evil',
      'a@evil..org',
      `${'a'.repeat(65)}@evil.org`,
    ]) {
      expect([address, normalEmail(address)]).toEqual([address, null]);
    }
    for (const [typed, stored] of [
      ["o'brien+tag@example.org", "o'brien+tag@example.org"],
      ['First.Last@Mail.Example.ORG', 'first.last@mail.example.org'],
      ['用户@例子.中国', '用户@例子.中国'],
      ['a@x-y.example', 'a@x-y.example'],
      ['a@123.example', 'a@123.example'],
    ]) {
      expect(normalEmail(typed)).toBe(stored);
    }
  });

  it('answers null from normalEmail for what is not an address', () => {
    expect(normalEmail('not-an-address')).toBeNull();
    expect(normalEmail(' \u212Aate@example.org ')).toBe('kate@example.org');
  });
});
