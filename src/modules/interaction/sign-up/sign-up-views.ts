import { Injectable } from '@nestjs/common';
import { messagePage } from '../../pages/page-shell';
import { html } from '../../../common/http/html';
import { BOLD, type Text, type Translate } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import type { BrowserContext } from '../../sessions/cookies';
import { BUSY_RETRY_AFTER_SECONDS } from '../../sessions/password-check-queue';
import { codePage, linkPage } from '../account-pages';
import { PendingInteractions, type Interaction } from '../pending-interactions';
import type { SignUpForm } from './sign-up-checks';
import { SIGN_UP_CODE_PATH, SIGN_UP_PATH, signUpPage } from './sign-up.pages';

/**
 * The sign-up pages as answers (sign-up.pages.ts draws the form): each with the CSRF token and
 * cookies of its form, and the links back to the request.
 */
@Injectable()
export class SignUpViews {
  constructor(private readonly interactions: PendingInteractions) {}

  form(
    lang: PageLanguage,
    interaction: Interaction,
    browser: BrowserContext,
    status: number,
    error?: Text,
    form?: SignUpForm,
  ): PageResult {
    const { token, cookies } = this.interactions.form(browser, interaction);
    const html = signUpPage(lang, {
      applicationName: interaction.application.name,
      requestId: interaction.pending.sealed,
      csrfToken: token,
      username: form?.username,
      email: form?.email,
      error,
      loginUrl: this.interactions.loginPath(interaction),
    });
    return { status, html, cookies };
  }

  code(
    lang: PageLanguage,
    interaction: Interaction | null,
    browser: BrowserContext,
    status: number,
    id: string,
    code?: string,
    error?: Text,
  ): PageResult {
    // Bound to the code, not to the request: the code still counts once the request expired.
    const { token, cookies } = this.interactions.formFor(browser, codeFormPurpose(id));
    const { t, rich } = lang.translator();
    const lead = interaction
      ? rich('signUp.codeLeadFor', { application: interaction.application.name }, BOLD)
      : html`${t('signUp.codeLead')}`;
    const page = codePage(lang, {
      action: SIGN_UP_CODE_PATH,
      title: t('code.checkEmailTitle'),
      lead: html`<p>${lead}</p>`,
      requestId: interaction?.pending.sealed ?? '',
      csrfToken: token,
      id,
      code,
      error,
      again: this.startAgain(t, interaction),
    });
    // The form may lead straight on to the client (CSP form-action follows redirects).
    const formTarget = interaction
      ? cspSourceOf(interaction.pending.request.redirectUri)
      : undefined;
    return { status, html: page, cookies, formTarget };
  }

  /** The username or address was taken since the form was sent: the code is spent, start again. */
  notCreated(lang: PageLanguage, interaction: Interaction | null): PageResult {
    const { t } = lang.translator();
    const html = linkPage(
      lang,
      t('signUp.notCreatedTitle'),
      t('signUp.notCreated'),
      this.startAgain(t, interaction),
    );
    return { status: 409, html };
  }

  /** Where "Start again" leads: the form of the request, or the account page's sign-in without one. */
  private startAgain(
    t: Translate,
    interaction: Interaction | null,
  ): { href: string; text: string } {
    return interaction
      ? { href: this.interactions.path(SIGN_UP_PATH, interaction), text: t('common.startAgain') }
      : { href: '/account/login', text: t('common.signIn') };
  }
}

/** The CSRF purpose of a sign-up code's form. */
export function codeFormPurpose(id: string): string {
  return `sign-up-code:${id}`;
}

/**
 * The code page in a browser that did not submit the form: where to enter the code, no form.
 * It says the same whatever the id, real or decoy, live or spent.
 */
export function otherBrowser(lang: PageLanguage, status: number): PageResult {
  const { t } = lang.translator();
  return {
    status,
    html: messagePage(lang, t('signUp.otherBrowserTitle'), t('signUp.otherBrowser')),
  };
}

export function busy(lang: PageLanguage): PageResult {
  const { t } = lang.translator();
  return {
    status: 503,
    html: messagePage(lang, t('errors.busyTitle'), t('login.refused.busy')),
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
  };
}
