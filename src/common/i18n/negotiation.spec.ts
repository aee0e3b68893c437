import { fromAcceptLanguage, fromUiLocales, matchLocale } from './negotiation';
import { safeReturnPath } from './page-language';

describe('language negotiation', () => {
  it.each([
    ['en', 'en'],
    ['EN-gb', 'en'],
    ['zh-CN', 'zh-CN'],
    ['zh-cn', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-HK', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-TW', undefined],
    ['zh-HK', undefined],
    ['zh-MO', undefined],
    ['zh-Hant', undefined],
    ['zh-Hant-CN', undefined],
    ['fr', undefined],
    ['*', undefined],
    ['', undefined],
    ['en;q=1', undefined],
  ])('matches the tag %p to %p', (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });

  it('takes the first supported tag of ui_locales', () => {
    expect(fromUiLocales('fr-CA zh-TW zh-Hans en')).toBe('zh-CN');
    expect(fromUiLocales('  en  zh-CN')).toBe('en');
    expect(fromUiLocales('fr de')).toBeUndefined();
    expect(fromUiLocales(['zh-CN'])).toBeUndefined();
    expect(fromUiLocales(undefined)).toBeUndefined();
  });

  it('orders Accept-Language by q, then by position', () => {
    expect(fromAcceptLanguage('en;q=0.5, zh-CN;q=0.9')).toBe('zh-CN');
    expect(fromAcceptLanguage('zh-CN;q=0.8, en;q=0.8')).toBe('zh-CN');
    expect(fromAcceptLanguage('zh-TW, zh;q=0.8, en;q=0.5')).toBe('zh-CN');
    expect(fromAcceptLanguage('zh-TW, en;q=0.5')).toBe('en');
    expect(fromAcceptLanguage('zh-CN;q=0, en')).toBe('en');
    expect(fromAcceptLanguage('de, *;q=0.1')).toBeUndefined();
    expect(fromAcceptLanguage('zh-CN;q=abc')).toBe('zh-CN');
    expect(fromAcceptLanguage(undefined)).toBeUndefined();
  });

  it('returns only to a path of this site', () => {
    expect(safeReturnPath('/oauth2/login?request=v1.x')).toBe('/oauth2/login?request=v1.x');
    for (const path of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      'login',
      '/a\nb',
      42,
    ]) {
      expect(safeReturnPath(path)).toBeUndefined();
    }
  });
});
