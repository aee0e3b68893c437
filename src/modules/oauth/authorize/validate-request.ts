import type { Application } from '../../applications/application.entity';
import { type Params } from '../../../common/http/params';
import { fromUiLocales } from '../../../common/i18n/negotiation';
import type { AuthorizationRequest } from './authorization-request';
import { checkApplicationEnabled } from './checks/check-application-enabled';
import { checkDpopJkt } from './checks/check-dpop-jkt';
import { checkOidcParams } from './checks/check-oidc-params';
import { checkPkce } from './checks/check-pkce';
import { checkPrompt } from './checks/check-prompt';
import { checkPushedRequired, type RequestRoute } from './checks/check-pushed-required';
import { checkRequestObject } from './checks/check-request-object';
import { checkResponseType } from './checks/check-response-type';
import { checkScope } from './checks/check-scope';
import { checkState } from './checks/check-state';
import { readUpstreamProviders } from './checks/upstream-providers';

/**
 * The steps of the authorization request after client and redirect_uri validation; each throws
 * an OAuthError. The one validator of the request: /authorize redirects its error to the
 * redirect_uri, the pushed authorization request endpoint (par/) answers it as JSON.
 */
export function validateAuthorizationRequest(
  query: Params,
  application: Application,
  redirectUri: string,
  route: RequestRoute,
): AuthorizationRequest {
  checkPushedRequired(route);
  checkResponseType(query);
  const state = checkState(query);
  const requested = checkScope(query);
  checkRequestObject(query, requested);
  const codeChallenge = checkPkce(query, application);
  checkDpopJkt(query);
  const prompt = checkPrompt(query, requested);
  const { scope, ...oidc } = checkOidcParams(query, requested);
  checkApplicationEnabled(application);
  return {
    applicationId: application.id,
    redirectUri,
    scope,
    state,
    codeChallenge,
    ...prompt,
    upstreamProviders: readUpstreamProviders(query),
    ...oidc,
    ...uiLocaleOf(query),
    ...(application.securityProfile === null ? {} : { profile: application.securityProfile }),
  };
}

/** ui_locales (OIDC Core 3.1.2.1): the first supported tag, kept for the request's pages. */
function uiLocaleOf(query: Params): Pick<AuthorizationRequest, 'uiLocale'> {
  const locale = fromUiLocales(query.ui_locales);
  return locale === undefined ? {} : { uiLocale: locale };
}
