import { Injectable } from '@nestjs/common';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { loginLocation } from '../../oauth/authorize/login-location';
import type { Pending } from '../../oauth/authorize/pending-authorizations.service';
import { DeviceApprovals } from '../../oauth/device/device-approvals.service';
import { displayUserCode, normaliseUserCode } from '../../oauth/device/user-code';
import type { Params } from '../../../common/http/params';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageError } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import type { BrowserContext } from '../../sessions/cookies';
import { PendingInteractions } from '../pending-interactions';
import { DeviceCodeThrottle } from './device-code-throttle';
import { codeEntryPage, confirmPage, endPage, tooManyPage, type DeviceEnd } from './device.pages';

/** The CSRF purpose of the code entry form (not bound to a request: there is none yet). */
const ENTRY_FORM = 'device-code';

/**
 * The person's part of the device authorization grant (RFC 8628 section 3.3; docs/oauth.md,
 * "Device authorization grant"): the code entry page, then sign-in through the login page of a
 * pending authorization request (every method it offers: password, passkey, upstream providers,
 * sign-up), then always the confirmation page, and the page it ends on. The protocol side
 * (finding the code, the rules at approval, the row the token endpoint reads) is DeviceApprovals.
 */
@Injectable()
export class DevicePagesService {
  constructor(
    private readonly interactions: PendingInteractions,
    private readonly authorize: AuthorizeService,
    private readonly approvals: DeviceApprovals,
    private readonly throttle: DeviceCodeThrottle,
  ) {}

  /** GET /device: the form, filled with `user_code` when a link carried one. */
  showEntry(query: Params, lang: PageLanguage, browser: BrowserContext): PageResult {
    const filled = typeof query.user_code === 'string' ? query.user_code.slice(0, 32) : '';
    return this.entry(lang, browser, 200, filled, false);
  }

  /**
   * POST /device: the form's CSRF token; then the throttle (a 429 before any lookup once the
   * address or the browser has too many unusable codes); then the code. An unusable one (wrong,
   * expired, answered) is the form again with one message for all; a usable one starts a pending
   * authorization request: the login page, or the confirmation at once for a signed-in person.
   */
  async submitEntry(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    this.interactions.checkFormFor(browser, ENTRY_FORM, body.csrf_token);
    const slot = await this.throttle.take(browser);
    if (slot.kind === 'throttled') {
      return { status: 429, html: tooManyPage(lang), retryAfterSeconds: slot.retryAfterSeconds };
    }
    const typed = typeof body.user_code === 'string' ? body.user_code.slice(0, 32) : '';
    const normalised = normaliseUserCode(typed);
    const device = normalised === null ? null : await this.approvals.findPending(normalised);
    if (device === null || normalised === null) {
      return this.entry(lang, browser, 400, typed, true);
    }
    await this.throttle.giveBack(slot.slots);
    const request = this.approvals.requestFor(device, displayUserCode(normalised));
    const sealed = this.interactions.open(request);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return { status: 303, location: loginLocation(sealed) };
    const interaction = await this.interactions.find(sealed, lang);
    return this.interactions.continue(signedIn, interaction, 303);
  }

  /**
   * GET /device/confirm: for the signed-in person (else the login page of the request), after
   * the rules of /authorize (a verified email or an upstream account the application requires
   * are offered as after any sign-in); always asks, whatever the person granted before.
   */
  async showConfirm(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.devicePending(requestId, lang);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return { status: 302, location: loginLocation(pending.sealed) };
    const interaction = await this.interactions.find(pending.sealed, lang);
    const { application } = interaction;
    const device = pending.request.device!;
    if (!(await this.approvals.isPending(device.id))) return this.end(lang, 'gone');
    const decision = await this.approvals.decide(application, signedIn.user, pending.request.scope);
    if (decision.kind === 'denied') {
      // A verified email or an upstream binding can be offered (the protocol's continuation).
      if (decision.unverifiedEmail || decision.missingUpstreams) {
        return this.interactions.continue(signedIn, interaction, 302);
      }
      return this.end(lang, 'refused', application.name);
    }
    const { token, cookies } = this.interactions.form(browser, interaction);
    const html = confirmPage(lang, {
      applicationName: application.name,
      logo: application.logo,
      username: signedIn.user.username,
      scope: pending.request.scope,
      userCode: device.userCode,
      requestId: pending.sealed,
      csrfToken: token,
    });
    return { status: 200, html, cookies };
  }

  /**
   * POST /device/confirm: the page's CSRF token (bound to the session and the request), the
   * signed-in person, a decision; the request is spent once, then the device row answered.
   */
  async submitConfirm(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.devicePending(body.request, lang);
    const interaction = await this.interactions.find(pending.sealed, lang);
    this.interactions.checkForm(browser, interaction, body.csrf_token);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return { status: 303, location: loginLocation(pending.sealed) };
    const decision = body.decision;
    if (decision !== 'approve' && decision !== 'deny') {
      throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.chooseDecision'));
    }
    if (!(await this.interactions.take(pending))) return this.end(lang, 'gone');
    const { application } = interaction;
    const answer = await this.approvals.answer(
      application,
      signedIn,
      pending.request.device!.id,
      decision === 'approve',
    );
    return this.end(lang, answer.kind, application.name);
  }

  /** A live pending request that is a device's; "Request expired" otherwise. */
  private async devicePending(requestId: unknown, lang: PageLanguage): Promise<Pending> {
    const pending = await this.interactions.pendingFor(requestId, lang);
    if (pending.request.device === undefined) {
      throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.requestExpired'));
    }
    return pending;
  }

  private entry(
    lang: PageLanguage,
    browser: BrowserContext,
    status: number,
    userCode: string,
    unusable: boolean,
  ): PageResult {
    const { token, cookies } = this.interactions.formFor(browser, ENTRY_FORM);
    return { status, html: codeEntryPage(lang, { userCode, csrfToken: token, unusable }), cookies };
  }

  private end(lang: PageLanguage, end: DeviceEnd, applicationName?: string): PageResult {
    const status = end === 'approved' || end === 'denied' ? 200 : 400;
    return { status, html: endPage(lang, end, applicationName) };
  }
}
