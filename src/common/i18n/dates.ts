// Dates for people, in a page's or an email's language (Intl), always in UTC: the server does
// not know the reader's time zone.
import type { Locale } from './i18n';

const formats = new Map<Locale, Intl.DateTimeFormat>();

/** A date and time to the minute, in UTC, as the language writes it ("Nov 26, 2026, 12:33 UTC"). */
export function formatDateTime(date: Date, locale: Locale): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    formats.set(locale, format);
  }
  return format.format(date);
}
