import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';

// Documentation of the upstream sign-in routes (docs/upstreams.md): browser redirects and
// HTML pages, never JSON.

const page = (status: number, description: string): MethodDecorator =>
  ApiResponse({ status, description, content: { 'text/html': { schema: { type: 'string' } } } });

const redirect = (description: string): MethodDecorator =>
  ApiResponse({
    status: 302,
    description,
    headers: {
      Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
    },
  });

const provider = (): MethodDecorator =>
  ApiParam({
    name: 'providerId',
    description: 'A configured upstream provider id',
    schema: { type: 'string' },
  });

export const UpstreamTags = (): ClassDecorator => ApiTags('Upstream sign-in (browser)');

export const StartUpstreamDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Start sign-in at an upstream provider (login page link)',
      description:
        'Sends the browser to the provider with state (+ PKCE and nonce where the kind uses them), kept sealed in the HttpOnly cookie idsvc_upstream for 10 minutes.',
    }),
    provider(),
    ApiQuery({
      name: 'request',
      required: true,
      description: 'The sealed authorization request of the login page',
      schema: { type: 'string' },
    }),
    redirect('To the provider'),
    page(400, 'The authorization request expired or was already answered'),
    page(403, 'The provider is not configured, disabled, or not allowed by upstream_providers'),
    page(503, 'The provider could not be reached'),
  );

export const UpstreamCallbackDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "The provider's answer (the redirect URI registered at the provider)",
      description:
        'Checks state against the idsvc_upstream cookie (single use), completes the exchange, finds or creates the user, signs in (cookie idsvc_session) and continues the authorization request as the login form does.',
    }),
    provider(),
    redirect('Signed in: to /oauth2/consent?request=…, or to redirect_uri with a code or an error'),
    page(
      400,
      'No sign-in in progress in this browser, state mismatch, a replayed answer, or an expired request',
    ),
    page(403, 'Cancelled at the provider, or the provider is not allowed for this request'),
    page(
      409,
      'The provider vouches for an email another account holds (no linking by email alone)',
    ),
    page(502, "The provider's answer could not be verified"),
    page(503, 'The provider could not be reached'),
  );

export const DirectUpstreamEntryDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Direct entry: start a provider for an authorization request',
      description:
        'redirect must be an /oauth2/authorize URL of this service; it is validated like /oauth2/authorize and the provider is started at once (prompt=none answers silently without the provider). Any other redirect is refused: this is no open redirect.',
    }),
    provider(),
    ApiQuery({
      name: 'redirect',
      required: true,
      description: "This service's /oauth2/authorize URL with its query",
      schema: { type: 'string', format: 'uri' },
    }),
    redirect('To the provider, or to redirect_uri with an error (as /oauth2/authorize)'),
    page(
      400,
      'redirect is not an authorization request URL of this service, or the request is invalid before redirect_uri is known',
    ),
    page(403, 'The provider is not configured, disabled, or not allowed by upstream_providers'),
  );

export const BindRequiredUpstreamDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Bind a provider the application requires (bind-upstream page form)',
      description:
        'Form fields request and csrf_token of /oauth2/bind-upstream; needs the session. Sends the browser to the provider; after the callback binds the account, the authorization request continues (consent or code).',
    }),
    provider(),
    page(200, 'A page that moves on to the provider (meta refresh and a Continue link)'),
    page(400, 'Not signed in, or the request expired'),
    page(403, 'Form expired (CSRF), or the provider is not one the application requires'),
  );
