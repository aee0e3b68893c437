import { html } from '../../../common/http/html';
import { CODE } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { layout, messagePage } from '../../pages/page-shell';
import { applicationAsks } from '../authorization-pages/pages/consent.page';

/** Where the person types the code (RFC 8628 section 3.3) and where they confirm it. */
export const DEVICE_PATH = '/device';
export const CONFIRM_PATH = '/device/confirm';

export interface CodeEntryModel {
  /** What fills the field: the `user_code` of verification_uri_complete, or what was typed. */
  userCode: string;
  csrfToken: string;
  /** The one message for every code that cannot be used. */
  unusable?: boolean;
}

/**
 * The code entry form (contract: input `user_code`, hidden `csrf_token`). Filled from a link's
 * user_code, it still needs the person's submit: nothing is approved by a GET.
 */
export function codeEntryPage(lang: PageLanguage, model: CodeEntryModel): string {
  const { t } = lang.translator();
  const error = model.unusable
    ? html`<p class="error" role="alert">${t('device.unusableCode')}</p>`
    : html``;
  return layout(
    lang,
    t('device.title'),
    html`<p>${t('device.lead')}</p>
      ${error}
      <form method="post" action="${DEVICE_PATH}">
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="user_code">${t('device.codeLabel')}</label>
        <input
          id="user_code"
          type="text"
          name="user_code"
          value="${model.userCode}"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          maxlength="32"
          required
          autofocus
        />
        <button type="submit">${t('device.submit')}</button>
      </form>`,
  );
}

export interface ConfirmModel {
  applicationName: string;
  logo: string;
  username: string;
  scope: string;
  userCode: string;
  requestId: string;
  csrfToken: string;
}

/**
 * The confirmation, always shown before a device is approved (RFC 8628 section 5.4): the
 * application, the account, the scopes, the code and the warning; Approve and Deny (contract:
 * buttons `name="decision"` with values `approve` and `deny`, hidden `request` and `csrf_token`).
 */
export function confirmPage(lang: PageLanguage, model: ConfirmModel): string {
  const { t, rich } = lang.translator();
  return layout(
    lang,
    t('device.confirmTitle'),
    html`${applicationAsks(lang, 'device.confirmLead', model)}
      <p>${rich('device.confirmCode', { userCode: model.userCode }, CODE)}</p>
      <p class="error" role="alert">${t('device.warning')}</p>
      <form method="post" action="${CONFIRM_PATH}">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <button type="submit" name="decision" value="approve">${t('device.approve')}</button>
        <button type="submit" name="decision" value="deny" class="secondary">
          ${t('device.deny')}
        </button>
      </form>`,
  );
}

export type DeviceEnd = 'approved' | 'denied' | 'refused' | 'gone';

/** The page a device authorization ends on (or cannot go on from). */
export function endPage(lang: PageLanguage, end: DeviceEnd, applicationName = ''): string {
  const { t } = lang.translator();
  switch (end) {
    case 'approved':
      return messagePage(lang, t('device.approvedTitle'), t('device.approved'));
    case 'denied':
      return messagePage(lang, t('device.deniedTitle'), t('device.denied'));
    case 'refused':
      return messagePage(
        lang,
        t('device.refusedTitle'),
        t('device.refused', { application: applicationName }),
      );
    case 'gone':
      return messagePage(lang, t('device.goneTitle'), t('device.gone'));
  }
}

/** The 429 page of too many codes tried. */
export function tooManyPage(lang: PageLanguage): string {
  const { t } = lang.translator();
  return messagePage(lang, t('device.tooManyTitle'), t('device.tooMany'));
}
