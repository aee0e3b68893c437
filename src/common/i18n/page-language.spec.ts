import type { Request } from 'express';
import { pageLanguage, pageLanguageOf, PageLanguage } from './page-language';

/** What the middleware reads of a request: method, URL, cookies and Accept-Language. */
function request(
  options: { method?: string; url?: string; cookie?: string; acceptLanguage?: string } = {},
): Request {
  const headers: Record<string, string | undefined> = {
    'accept-language': options.acceptLanguage,
  };
  return {
    method: options.method ?? 'GET',
    originalUrl: options.url ?? '/oauth2/login?request=sealed',
    cookies: options.cookie === undefined ? {} : { ui_locale: options.cookie },
    get: (name: string) => headers[name.toLowerCase()],
  } as unknown as Request;
}

/** A request that went through the page routes' middleware, and the language it holds. */
function pageRequest(options: Parameters<typeof request>[0] = {}): PageLanguage {
  const req = request(options);
  let nextCalled = false;
  pageLanguage(req, {} as never, () => {
    nextCalled = true;
  });
  expect(nextCalled).toBe(true);
  return pageLanguageOf(req);
}

describe('page language', () => {
  it('is the switcher cookie, else Accept-Language, else English', () => {
    expect(pageRequest().locale).toBe('en');
    expect(pageRequest({ acceptLanguage: 'zh-TW, zh;q=0.8, en;q=0.5' }).locale).toBe('zh-CN');
    expect(pageRequest({ acceptLanguage: 'zh-CN', cookie: 'en' }).locale).toBe('en');
    expect(pageRequest({ acceptLanguage: 'zh-CN', cookie: 'fr' }).locale).toBe('zh-CN');
  });

  it('gives the page its messages in its language', () => {
    const lang = pageRequest({ acceptLanguage: 'zh-CN' });
    expect(lang.translator().locale).toBe('zh-CN');
    lang.useUiLocales('en');
    expect(lang.translator().locale).toBe('en');
  });

  it('is held by each request apart, never shared with another one', () => {
    const chinese = request({ acceptLanguage: 'zh-CN' });
    const english = request();
    pageLanguage(chinese, {} as never, () => undefined);
    pageLanguage(english, {} as never, () => undefined);
    pageLanguageOf(english).useUiLocales('en');
    expect(pageLanguageOf(chinese).locale).toBe('zh-CN');
    expect(pageLanguageOf(chinese).switcher()).toBeDefined();
  });

  it("takes ui_locales' first supported tag, and then shows no switcher", () => {
    const lang = pageRequest({ cookie: 'en' });
    expect(lang.switcher()).toEqual({ locale: 'en', returnTo: '/oauth2/login?request=sealed' });
    expect(lang.useUiLocales('fr de')).toBeUndefined();
    expect(lang.locale).toBe('en');
    expect(lang.switcher()).toBeDefined();
    expect(lang.useUiLocales('fr zh-Hans en')).toBe('zh-CN');
    expect(lang.locale).toBe('zh-CN');
    expect(lang.switcher()).toBeUndefined();
  });

  it("takes a sealed request's locale, and ignores anything that is not one", () => {
    const lang = pageRequest();
    lang.useRequestLocale(undefined);
    lang.useRequestLocale('zh');
    expect(lang.locale).toBe('en');
    expect(lang.switcher()).toBeDefined();
    lang.useRequestLocale('zh-CN');
    expect(lang.locale).toBe('zh-CN');
    expect(lang.switcher()).toBeUndefined();
  });

  it('offers the switcher only on a GET page whose query holds request, id and code', () => {
    const url = '/oauth2/signup/verify?request=r&id=i&code=123';
    expect(pageRequest({ url }).switcher()?.returnTo).toBe(url);
    expect(pageRequest({ url: '/account' }).switcher()?.returnTo).toBe('/account');
    expect(pageRequest({ url: '/oauth2/authorize?client_id=c' }).switcher()).toBeUndefined();
    expect(pageRequest({ method: 'POST', url: '/oauth2/login' }).switcher()).toBeUndefined();
  });

  it('is English without a switcher outside the page routes, whatever ui_locales says', () => {
    const req = request({ acceptLanguage: 'zh-CN', cookie: 'zh-CN' });
    const lang = pageLanguageOf(req);
    expect(lang).toBe(PageLanguage.OUTSIDE_PAGES);
    expect(lang.useUiLocales('zh-CN')).toBe('zh-CN');
    lang.useRequestLocale('zh-CN');
    expect(lang.locale).toBe('en');
    expect(lang.translator().locale).toBe('en');
    expect(lang.switcher()).toBeUndefined();
  });
});
