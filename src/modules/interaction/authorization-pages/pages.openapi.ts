import { applyDecorators } from '@nestjs/common';
import { SUPPORTED_LOCALES } from '../../../common/i18n/i18n';
import {
  formBody as form,
  formRefusalPages,
  htmlPage as html,
  redirectTo as redirect,
} from '../../../common/http/page-openapi';
import {
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
} from '@nestjs/swagger';
import { SessionAuth } from '../../../common/http/openapi-security';
import { RETRY_AFTER } from '../../../common/errors/error-body.openapi';
import { PasskeyCeremonyStart } from '../../passkeys/passkey-view';
import { SIGN_IN_STARTS_PER_ADDRESS } from '../../passkeys/sign-in/passkey-sign-in.service';
import { DEFAULT_SCOPE, OAUTH_SCOPES } from '../../oauth/protocol/scopes';
import { MAX_STATE_LENGTH } from '../../oauth/authorize/checks/check-state';

// Documentation of the browser side of OAuth (docs/oauth.md): /oauth2/authorize and the login,
// consent and logout pages. These answer HTML pages and redirects, never JSON.

/** The browser session is used when present (a signed-in user), not required. */
const OptionalSession = (): MethodDecorator => applyDecorators(SessionAuth(), ApiSecurity({}));

const REDIRECT_ERRORS =
  'invalid_request, unsupported_response_type, access_denied; with prompt=none also login_required, consent_required, interaction_required; with openid, request_not_supported and request_uri_not_supported';

/** The hidden `request` field or query parameter: the sealed, validated authorization request. */
const SEALED_REQUEST =
  'The sealed authorization request from the redirect to this page (opaque; expires after 10 minutes, single use)';

const query = (
  name: string,
  required: boolean,
  description: string,
  schema: object,
): MethodDecorator => ApiQuery({ name, required, description, schema });

/** GET /oauth2/authorize (docs/contract/oauth.md#authorization-request; RFC 6749 section 4.1.1; RFC 7636; RFC 9207). */
export const AuthorizeDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Authorization endpoint (browser)',
      description:
        'Starts the authorization code flow. client_id and redirect_uri (exact match with a registered URI; for a `none` client a registered loopback IP redirect matches any port, RFC 8252 section 7.3) are checked first; their failures answer an HTML page and never redirect. Every later error redirects to redirect_uri with error, error_description, state (unchanged, when sent) and iss. A parameter sent twice is invalid_request.',
    }),
    query('response_type', true, 'Only `code`', { type: 'string', enum: ['code'] }),
    query('client_id', true, 'Client id of the application', { type: 'string' }),
    query(
      'redirect_uri',
      true,
      'A registered redirect URI, compared as an exact string (but the port of a loopback IP redirect of a `none` client); the token request repeats it exactly',
      {
        type: 'string',
        format: 'uri',
      },
    ),
    query(
      'scope',
      false,
      `Space-separated list of ${OAUTH_SCOPES.join(', ')}; other values are ignored, and without any of these the scope is ${DEFAULT_SCOPE}`,
      {
        type: 'string',
        example: 'read',
      },
    ),
    query('state', false, 'Recommended; returned unchanged on the redirect', {
      type: 'string',
      maxLength: MAX_STATE_LENGTH,
    }),
    query(
      'upstream_providers',
      false,
      'Comma-separated sign-in methods to offer: ids of configured upstream providers, and `password` for the password form; unknown names are ignored, absent means all (a list leaving no method is an error page)',
      { type: 'string', example: 'github,google,password' },
    ),
    query(
      'prompt',
      false,
      '`none`: silent authentication, never a page. With `openid` in scope also `login`, `consent`, `select_account` (space-separated; never with `none`), OIDC Core 3.1.2.1',
      { type: 'string', example: 'none' },
    ),
    query(
      'ui_locales',
      false,
      'Space-separated BCP 47 tags in order of preference (OIDC Core 3.1.2.1): the first supported one (`en`, `zh-CN`) is the language of every page of this request, the upstream round trip included; unsupported tags are ignored (docs/languages.md)',
      { type: 'string', example: 'zh-CN en' },
    ),
    query(
      'claims',
      false,
      'With `openid`: OIDC Core 5.5 claims request (JSON object with `userinfo` and `id_token` members)',
      { type: 'string' },
    ),
    query(
      'code_challenge',
      false,
      'PKCE: BASE64URL(SHA256(code_verifier)), 43 characters. Required for `none` clients, optional for `secret` clients',
      { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
    ),
    query('code_challenge_method', false, 'With code_challenge: only `S256`', {
      type: 'string',
      enum: ['S256'],
    }),
    OptionalSession(),
    redirect(
      302,
      `To redirect_uri?code=…&state=…&iss=… (signed in and an earlier grant covers the scopes, or prompt=none succeeded); to redirect_uri?error=…&error_description=…&state=…&iss=… (${REDIRECT_ERRORS}); to /oauth2/login?request=… (not signed in); or to /oauth2/consent?request=… (consent needed)`,
    ),
    html(400, 'client_id missing, repeated or unknown, or redirect_uri missing or not registered'),
    html(503, 'The database cannot be reached'),
  );

/** The login form (docs/oauth.md, "Form contract for automated clients"). */
export class LoginForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ description: 'Username or email' }) username!: string;
  @ApiProperty() password!: string;
}

/** POST /oauth2/authorize: the parameters of GET /oauth2/authorize, as a form (OIDC Core 3.1.2.1). */
export class AuthorizeForm {
  @ApiProperty({ enum: ['code'] }) response_type!: string;
  @ApiProperty() client_id!: string;
  @ApiProperty({ format: 'uri' }) redirect_uri!: string;
  @ApiProperty({ example: 'openid profile' }) scope!: string;
  @ApiPropertyOptional({ maxLength: MAX_STATE_LENGTH }) state?: string;
  @ApiPropertyOptional({ description: 'Every other parameter of GET /oauth2/authorize' })
  nonce?: string;
}

export const AuthorizePostDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Authorization endpoint, form POST (browser)',
      description:
        'OIDC Core 3.1.2.1: the request of GET /oauth2/authorize sent as an application/x-www-form-urlencoded body (the query string is not read), with the same checks, errors and repeated-parameter rule; no CSRF token (a top-level navigation from the client). Redirects are 303.',
    }),
    form(AuthorizeForm),
    OptionalSession(),
    redirect(303, 'As GET /oauth2/authorize (302 there)'),
    html(400, 'client_id missing, repeated or unknown, or redirect_uri missing or not registered'),
    html(413, 'The form is larger than 32 kB'),
    html(415, 'Not application/x-www-form-urlencoded UTF-8'),
    html(503, 'The database cannot be reached'),
  );

/** The login page's passkey form as its script submits it (docs/oauth.md, "Passkey sign-in"). */
export class PasskeyLoginForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the login page' }) csrf_token!: string;
  @ApiProperty({ format: 'uuid', description: 'The ceremonyId of the options' })
  ceremony_id!: string;
  @ApiProperty({
    description:
      'The AuthenticationResponseJSON of navigator.credentials.get() as JSON text (binary fields base64url)',
  })
  assertion!: string;
}

/** What the passkey script sends for the options: the login form's hidden fields. */
export class PasskeyOptionsForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the login page' }) csrf_token!: string;
}

export class SelectAccountForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ enum: ['continue', 'switch'] }) decision!: string;
}

export class ConsentForm {
  @ApiProperty({ description: SEALED_REQUEST }) request!: string;
  @ApiProperty({ description: 'The form token of the page' }) csrf_token!: string;
  @ApiProperty({ enum: ['approve', 'deny'] }) decision!: string;
}

export class LogoutForm {
  @ApiProperty({ description: 'The form token of GET /oauth2/logout' }) csrf_token!: string;
  @ApiPropertyOptional({
    description:
      'The sealed, validated post-logout link of the form (opaque; expires after 10 minutes)',
  })
  logout_request?: string;
  @ApiPropertyOptional({
    description:
      "The language the end-session request's ui_locales chose, carried on to the Signed out page",
    example: 'zh-CN',
  })
  ui_locales?: string;
}

const sealedQuery = (): MethodDecorator =>
  query('request', true, SEALED_REQUEST, { type: 'string' });

const expired = (): MethodDecorator =>
  html(400, 'Request expired: the sealed request is invalid, expired or already answered');

/** A form page refuses foreign submissions and unreadable bodies with an HTML page. */
const formRefusals = (): MethodDecorator =>
  formRefusalPages('Form expired: the csrf_token does not belong to this browser and request');

export const ShowLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Login page (HTML)' }),
    sealedQuery(),
    html(200, 'The login form'),
    expired(),
  );

export const SubmitLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign in (login form)',
      description:
        'On success sets the session cookie idsvc_session and continues the authorization. Failed sign-ins are throttled per account and address and per address (docs/oauth.md).',
    }),
    form(LoginForm),
    redirect(
      303,
      `Signed in: to /oauth2/consent?request=…, or to redirect_uri with a code (earlier grant) or an error (${REDIRECT_ERRORS})`,
    ),
    html(401, 'The login form again: wrong username or password'),
    html(429, 'The login form again: too many failed sign-ins from this address'),
    expired(),
    formRefusals(),
  );

const NO_PASSKEY_LOGIN =
  'Request expired (the sealed request is invalid, expired or already answered), or passkeys not offered: upstream_providers leaves the password form out';

export const StartPasskeyLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Start a passkey sign-in (login page script)',
      description: `Called by the login page's script with the page's hidden fields. Answers WebAuthn request options with no allowCredentials (a discoverable credential: the authenticator offers its passkeys) and the ceremony id to send back with the assertion (single use, 5 minutes). An Origin header, when sent, must be this service's origin. Each call stores a challenge, so a client address may start ${SIGN_IN_STARTS_PER_ADDRESS} passkey sign-ins per 15 minutes, counted together with the console's POST /api/console/session/passkey/options; refused requests (wrong Origin, request or csrf_token) are not counted. Errors are HTML pages, as on every /oauth2 page.`,
    }),
    form(PasskeyOptionsForm),
    ApiResponse({ status: 200, description: 'The options', type: PasskeyCeremonyStart }),
    html(400, NO_PASSKEY_LOGIN),
    html(
      403,
      'A foreign Origin header, or a csrf_token that does not belong to this browser and request',
    ),
    html(413, 'The form is larger than 32 kB'),
    html(415, 'Not application/x-www-form-urlencoded UTF-8'),
    html(429, 'Too many passkey sign-ins started from this address', RETRY_AFTER),
  );

export const SubmitPasskeyLoginDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign in with a passkey (login page passkey form)',
      description:
        'The assertion of a ceremony started by POST /oauth2/login/passkey/options, posted as a form by the login page\'s script. On success sets the session cookie idsvc_session (auth method passkey: amr ["hwk","user"]) and continues the authorization as a password sign-in does.',
    }),
    form(PasskeyLoginForm),
    redirect(
      303,
      `Signed in: to /oauth2/consent?request=…, or to redirect_uri with a code (earlier grant) or an error (${REDIRECT_ERRORS})`,
    ),
    html(
      401,
      'The login form again with "That passkey could not be used to sign in.": the ceremony is unknown, expired or used, or the assertion does not verify (never saying which)',
    ),
    html(400, NO_PASSKEY_LOGIN),
    formRefusals(),
  );

export const PasskeyScriptDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'The passkey sign-in script of the login page',
      description:
        'A static script (text/javascript). The page links it with v=<version>; under the current version it is cacheable for a year (immutable), under any other v it is revalidated on each use.',
    }),
    query('v', false, 'The version the page links (a digest of the script)', { type: 'string' }),
    ApiResponse({
      status: 200,
      description: 'The script',
      content: { 'text/javascript': { schema: { type: 'string' } } },
    }),
  );

/** GET /oauth2/language: the pages' language switcher (docs/languages.md). */
export const SwitchLanguageDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "The pages' language switcher",
      description:
        'Remembers the language in the ui_locale cookie (a year, SameSite=Lax) and sends the browser back to the page it came from. The pages of an authorization request that named ui_locales keep that language.',
    }),
    query('locale', true, 'A supported language', { type: 'string', enum: [...SUPPORTED_LOCALES] }),
    query('return', true, 'The path of the page to return to (this site only)', {
      type: 'string',
      example: '/oauth2/login?request=v1.abc',
    }),
    redirect(303, 'To `return`, with the cookie set'),
    html(400, 'Unsupported language, or a return path that is not of this site'),
  );

export const ShowSelectAccountDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Account choice page for prompt=select_account (HTML)' }),
    sealedQuery(),
    SessionAuth(),
    html(200, 'Continue as the signed-in user, or use another account'),
    redirect(302, 'To /oauth2/login?request=… when not signed in'),
    expired(),
  );

export const SubmitSelectAccountDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Continue as the signed-in user, or sign out and sign in with another account',
    }),
    form(SelectAccountForm),
    SessionAuth(),
    redirect(
      303,
      'continue: as after a sign-in (consent page, or redirect_uri with a code or an error); switch: the session ends and the login page of the same request follows',
    ),
    html(400, 'decision is neither continue nor switch, or the request expired'),
    formRefusals(),
  );

export const ShowConsentDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Consent page (HTML)' }),
    sealedQuery(),
    SessionAuth(),
    html(200, 'The consent form: application, requested scopes, approve and deny'),
    redirect(
      302,
      'To /oauth2/login?request=… when not signed in; to redirect_uri when consent is no longer needed',
    ),
    expired(),
  );

export const SubmitConsentDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Approve or deny (consent form)' }),
    form(ConsentForm),
    SessionAuth(),
    redirect(
      303,
      'To redirect_uri?code=…&state=…&iss=… (approved), redirect_uri?error=access_denied&… (denied or no access), or /oauth2/login?request=… (not signed in)',
    ),
    html(400, 'decision is neither approve nor deny, or the request expired'),
    formRefusals(),
  );

/** The end_session_endpoint's query (or form) parameters (OIDC RP-Initiated Logout 1.0 section 2). */
const endSessionParams = (): MethodDecorator =>
  applyDecorators(
    query(
      'id_token_hint',
      false,
      'An id_token this service issued (expired is fine); its aud names the client',
      { type: 'string' },
    ),
    query(
      'post_logout_redirect_uri',
      false,
      "Exactly one of the client's registered post-logout redirect URIs (needs id_token_hint or client_id)",
      { type: 'string', format: 'uri' },
    ),
    query('state', false, 'Returned unchanged on the redirect', {
      type: 'string',
      maxLength: MAX_STATE_LENGTH,
    }),
    query('client_id', false, "Must equal the hint's aud when both are sent", { type: 'string' }),
    query(
      'ui_locales',
      false,
      'Space-separated BCP 47 tags in order of preference: the first supported one (`en`, `zh-CN`) is the language of this page (docs/languages.md)',
      { type: 'string', example: 'zh-CN en' },
    ),
  );

const LOGOUT_REFUSALS =
  'Invalid logout request: id_token_hint not issued here, client_id disagreeing with it or unknown, post_logout_redirect_uri not registered or without a client, a parameter repeated; never redirects';

export const ShowLogoutDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'End-session endpoint (browser; OpenID Connect RP-Initiated Logout 1.0)',
      description:
        "With a valid id_token_hint whose sub is the signed-in user, signs out at once and redirects to post_logout_redirect_uri (the only redirect). With a hint and nobody signed in, the Signed out page links to post_logout_redirect_uri instead. Otherwise (no hint, or another user's) shows a sign-out form; the validated link travels in it sealed. Also at /api/oidc/logout. Tokens issued to clients are not revoked (docs/oidc.md).",
    }),
    endSessionParams(),
    OptionalSession(),
    redirect(
      302,
      'The hint names the signed-in user: signed out, to post_logout_redirect_uri (with state when sent)',
    ),
    html(
      200,
      'Signed out (with a link to post_logout_redirect_uri when sent and nobody was signed in), or the sign-out form (sets the idsvc_csrf cookie its token is bound to)',
    ),
    html(400, LOGOUT_REFUSALS),
  );

export const LogoutDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Sign out (sign-out form), or an RP-initiated logout by POST',
      description:
        'The form: csrf_token required, ends the browser session and clears idsvc_session, then shows Signed out with a link to the sealed post_logout_redirect_uri if any (never a redirect). A POST without csrf_token carrying end-session parameters is handled as the GET (RP-Initiated Logout 1.0 section 2; its redirect is a 303).',
    }),
    form(LogoutForm),
    OptionalSession(),
    html(200, 'Signed out (with a link to the sealed post_logout_redirect_uri, if any)'),
    redirect(
      303,
      'An RP-initiated POST whose hint names the signed-in user: to post_logout_redirect_uri (with state when sent)',
    ),
    html(400, `${LOGOUT_REFUSALS}; or the sealed logout_request expired`),
    formRefusals(),
  );

export const ShowBindUpstreamDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Bind a required upstream provider (HTML)',
      description:
        'Shown to a signed-in user when the application requires a bound account of a provider the user lacks: one form per required provider, posting to /api/auth/upstream/{providerId}/bind; after binding the authorization continues.',
    }),
    OptionalSession(),
    sealedQuery(),
    html(200, 'The providers to bind'),
    redirect(302, 'Not signed in: to the login page'),
    expired(),
  );
