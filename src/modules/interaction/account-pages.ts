import { layout, messagePage } from '../pages/page-shell';
import { html, Html } from '../../common/http/html';
import {
  msg,
  render,
  type Message,
  type MessageKey,
  type Text,
  type Translate,
} from '../../common/i18n/i18n';
import type { PageLanguage } from '../../common/i18n/page-language';
import { PageError } from '../pages/page-error';
import type { PageResult } from '../pages/page-result';
import type { PasswordWeakness, StrengthWarning } from '../users/password-policy';

// The pages the sign-up and email verification flows share: the code form and a page with a
// link onward. Server-rendered, no script: they work without JavaScript.

/** The hidden fields every form of an authorization's pages carries. */
export interface FormBinding {
  requestId: string;
  csrfToken: string;
}

/** The error paragraph above a form (nothing without an error), in the page's language. */
export const errorBox = (t: Translate, error: Text | undefined): Html =>
  error ? html`<p class="error" role="alert">${render(error, t)}</p>` : html``;

export interface CodePageModel extends FormBinding {
  /** Where the form posts. */
  action: string;
  title: string;
  /** One sentence above the form: what the code is for. */
  lead: Html;
  /** The code's id (hidden field `id`). */
  id: string;
  /** The code from the emailed link, filled in; the person still submits the form. */
  code?: string;
  error?: Text;
  /** A way to ask for a new code or to start again. */
  again: { href: string; text: string };
}

/**
 * The page where an emailed code is entered (form contract: input `code`; hidden `request`,
 * `id`, `csrf_token`). The emailed link fills the code in but never submits it: a mail scanner
 * that opens links spends nothing.
 */
export function codePage(lang: PageLanguage, model: CodePageModel): string {
  const { t } = lang.translator();
  return layout(
    lang,
    model.title,
    html`${model.lead} ${errorBox(t, model.error)}
      <form method="post" action="${model.action}">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <input type="hidden" name="id" value="${model.id}" />
        ${codeInput(t, model.code)}
        <button type="submit">${t('common.continue')}</button>
      </form>
      <p class="muted"><a href="${model.again.href}">${model.again.text}</a></p>`,
  );
}

/**
 * The input of an emailed code, on every page that takes one: digits, spaces allowed (the
 * check ignores them), the browser's one-time-code autofill, the link's code filled in.
 */
export function codeInput(t: Translate, code: string | undefined): Html {
  return html`<label for="code">${t('code.label')}</label>
    <input
      type="text"
      id="code"
      name="code"
      autocomplete="one-time-code"
      inputmode="numeric"
      pattern="[0-9 ]*"
      maxlength="12"
      required
      value="${code ?? ''}"
    />`;
}

/** A page that explains what happened and offers one link onward. */
export function linkPage(
  lang: PageLanguage,
  title: string,
  message: string,
  link: { href: string; text: string },
): string {
  return layout(
    lang,
    title,
    html`<p>${message}</p>
      <p><a href="${link.href}">${link.text}</a></p>`,
  );
}

const TOO_MANY: Record<'codes' | 'sign-ups', MessageKey> = {
  codes: 'code.tooManyCodes',
  'sign-ups': 'code.tooManySignUps',
};

/** 429 with Retry-After: a limit of docs/accounts.md, "Limits". */
export function tooMany(
  lang: PageLanguage,
  what: keyof typeof TOO_MANY,
  retryAfterSeconds: number,
): PageResult {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const { t } = lang.translator();
  return {
    status: 429,
    html: messagePage(lang, t('code.tooManyTitle'), t(TOO_MANY[what], { minutes })),
    retryAfterSeconds,
  };
}

/** The SMTP server did not take the email (docs/accounts.md, "Mail"). */
export function mailNotSent(): PageError {
  return new PageError(503, msg('code.mailNotSentTitle'), msg('code.mailNotSent'));
}

/** The answer to a wrong, expired or spent code; the same words for each (docs/accounts.md). */
export const WRONG_CODE = msg('code.wrong');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The id of a code page: a code's id, or a 400 page (the page is useless without it). */
export function codeId(value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new PageError(400, msg('code.invalidLinkTitle'), msg('code.invalidLink'));
  }
  return value;
}

/** zxcvbn's warnings in the catalogs (each worded to sit in the refusal's parentheses). */
const STRENGTH_WARNINGS: Record<StrengthWarning, MessageKey> = {
  straightRow: 'password.strength.straightRow',
  keyPattern: 'password.strength.keyPattern',
  simpleRepeat: 'password.strength.simpleRepeat',
  extendedRepeat: 'password.strength.extendedRepeat',
  sequences: 'password.strength.sequences',
  recentYears: 'password.strength.recentYears',
  dates: 'password.strength.dates',
  topTen: 'password.strength.topTen',
  topHundred: 'password.strength.topHundred',
  common: 'password.strength.common',
  similarToCommon: 'password.strength.similarToCommon',
  wordByItself: 'password.strength.wordByItself',
  namesByThemselves: 'password.strength.namesByThemselves',
  commonNames: 'password.strength.commonNames',
  userInputs: 'password.strength.userInputs',
  pwned: 'password.strength.pwned',
};

/** A refused password in the page's words, with zxcvbn's reason in the same language. */
export function passwordProblemText(weakness: PasswordWeakness): Message {
  switch (weakness.kind) {
    case 'too_short':
      return msg('password.tooShort', { min: weakness.min });
    case 'too_long':
      return msg('password.tooLong', { max: weakness.max });
    case 'guessable':
      return weakness.warning === undefined
        ? msg('password.guessable')
        : msg('password.guessableBecause', {
            reason: msg(STRENGTH_WARNINGS[weakness.warning]),
          });
  }
}
