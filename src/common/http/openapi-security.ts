import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import type { SecuritySchemeObject } from '@nestjs/swagger';

/**
 * The credentials of the HTTP API, as OpenAPI security schemes (docs/openapi.md). Each family of
 * routes states its own with one decorator below; the document builder registers the schemes.
 * The names are part of the committed document, so renaming one changes docs/openapi.json.
 */
export const SECURITY_SCHEMES = {
  /** docs/contract/api-keys.md#authentication: `Authorization: Bearer svc_live_…`, on every /api/v1/app route. */
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_live_<32 base62 characters>',
    description:
      'Application API key, in the Authorization header only. Missing → 401 missing_api_key; malformed, unknown, expired or deactivated → 401 invalid_api_key.',
  },
  /** RFC 6749 section 2.3.1, client_secret_basic: the token endpoint's HTTP Basic option. */
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'Client authentication of a `secret` client: `Authorization: Basic BASE64(urlencode(client_id):urlencode(client_secret))` (client_secret_basic). The same credentials may instead be sent as the form fields client_id and client_secret (client_secret_post); a `none` client sends client_id only, with PKCE.',
  },
  /** RFC 6750: the OAuth access token at the userinfo and emails endpoints. */
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'opaque',
    description:
      'OAuth 2.0 access token from the token endpoint (RFC 6750), in the Authorization header only.',
  },
  /** The browser session of the OAuth pages and the console (cookie `idsvc_session`). */
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'idsvc_session',
    description:
      'Browser session cookie set by signing in (HttpOnly, SameSite=Lax, Path=/). Shared by the OAuth login pages and the console. Named __Host-idsvc_session (and Secure) when the service is served over https.',
  },
  /** The console's CSRF header, required with the session on every state-changing request. */
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      'CSRF token of the console session (the csrfToken of the session body), required on POST, PUT, PATCH and DELETE under /api/console except sign-in; otherwise 403 csrf_failed.',
  },
} as const satisfies Record<string, SecuritySchemeObject>;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

/** Routes of the application API (/api/v1/app): the application API key. */
export const ApiKeyAuth = (): ClassDecorator & MethodDecorator => ApiBearerAuth('apiKey');

/** The token endpoint: HTTP Basic client authentication, or client_id (+ secret) in the form. */
export const ClientAuth = (): ClassDecorator & MethodDecorator =>
  applyDecorators(ApiBasicAuth('clientBasic'), ApiSecurity({}));

/** Userinfo and user emails: an OAuth access token. */
export const AccessTokenAuth = (): ClassDecorator & MethodDecorator => ApiBearerAuth('accessToken');

/**
 * The browser session cookie: console JSON routes and the OAuth pages. Under /api/console the
 * document builder adds the CSRF header to the state-changing routes (POST, PUT, PATCH, DELETE),
 * as ConsoleSessionGuard checks it on exactly those.
 */
export const SessionAuth = (): ClassDecorator & MethodDecorator => ApiCookieAuth('session');
