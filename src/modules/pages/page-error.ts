import { DEFAULT_LOCALE, msg, render, translator, type Text } from '../../common/i18n/i18n';

/** What an error page shows: its status, and a title and message in the page's language. */
export interface ErrorPage {
  status: number;
  title: Text;
  message: Text;
}

/**
 * A failure of a page: of the authorization endpoint before the redirect_uri is validated, or
 * of a sign-in, consent, account or console page. Shown as an HTML page, never redirected
 * (RFC 6749 section 4.1.2.1).
 */
export class PageError extends Error {
  /** The title in English (logs, tests); the page shows `titleText` in its own language. */
  readonly title: string;

  constructor(
    readonly status: number,
    readonly titleText: Text,
    readonly messageText: Text,
  ) {
    const english = translator(DEFAULT_LOCALE).t;
    super(render(messageText, english));
    this.title = render(titleText, english);
    this.name = 'PageError';
  }
}

/**
 * An error of a layer the pages do not know (the OAuth protocol's) that says how it reads on a
 * page. The page filter asks this, so the pages import no protocol.
 */
export interface ShownOnPage {
  asPage(): ErrorPage;
}

export function isShownOnPage(error: unknown): error is ShownOnPage {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<ShownOnPage>).asPage === 'function'
  );
}

/** A page's form whose CSRF token is not the one this browser was shown for it (403). */
export function formExpired(): PageError {
  return new PageError(403, msg('errors.formExpiredTitle'), msg('errors.formExpired'));
}
