// Which catalog answers a language tag, a ui_locales list or an Accept-Language header
// (docs/languages.md, "Negotiation").
import { SUPPORTED_LOCALES, type Locale } from './i18n';

const TAG = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;

interface Subtags {
  language: string;
  script?: string;
  region?: string;
}

/** Chinese regions whose usual script is Traditional (no script subtag given). */
const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

function subtags(tag: string): Subtags {
  const [language, ...rest] = tag.toLowerCase().split('-');
  const script = rest.find((part) => part.length === 4 && /^[a-z]+$/.test(part));
  const region = rest.find((part) => /^([a-z]{2}|[0-9]{3})$/.test(part));
  // Chinese without a script: Traditional in Taiwan, Hong Kong and Macao, Simplified elsewhere.
  const inferred =
    script ??
    (language === 'zh' ? (region && TRADITIONAL_REGIONS.has(region) ? 'hant' : 'hans') : undefined);
  return { language, script: inferred, region };
}

/**
 * The supported locale a BCP 47 tag asks for: the same tag (any case), else one of the same
 * language whose script does not differ (`en-GB` → `en`; `zh`, `zh-Hans`, `zh-SG` → `zh-CN`;
 * `zh-TW`, `zh-HK`, `zh-Hant` → none: Traditional is not Simplified).
 */
export function matchLocale(tag: string): Locale | undefined {
  const trimmed = tag.trim();
  if (!TAG.test(trimmed)) return undefined;
  const exact = SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === trimmed.toLowerCase());
  if (exact) return exact;
  const wanted = subtags(trimmed);
  const candidates = SUPPORTED_LOCALES.filter((locale) => {
    const offered = subtags(locale);
    return (
      offered.language === wanted.language &&
      (offered.script === undefined ||
        wanted.script === undefined ||
        offered.script === wanted.script)
    );
  });
  return candidates.find((locale) => subtags(locale).region === wanted.region) ?? candidates[0];
}

/** OIDC Core 3.1.2.1 ui_locales: space-separated tags in order of preference; the first supported. */
export function fromUiLocales(value: unknown): Locale | undefined {
  if (typeof value !== 'string') return undefined;
  for (const tag of value.split(' ')) {
    const locale = tag === '' ? undefined : matchLocale(tag);
    if (locale) return locale;
  }
  return undefined;
}

/** RFC 9110 12.5.4 Accept-Language: the supported locale of the highest q (first on a tie). */
export function fromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params
        .map((param) => /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(param))
        .find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((range) => range.q > 0 && range.tag !== '' && range.tag !== '*')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const locale = matchLocale(range.tag);
    if (locale) return locale;
  }
  return undefined;
}
