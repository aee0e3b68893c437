import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { serviceLogs } from './common/http/access-log';
import { readBody, type BodyPolicy } from './common/http/request-body';
import { firstMatchingMount, type PrefixMount } from './common/http/prefix-mounts';
import { AppConfig } from './config/app-config';
import { useHttpMetrics } from './modules/metrics/http-metrics';
import { oauthBodyErrors, pageBodyErrors } from './modules/oauth/body-errors';
import { pageRequests } from './modules/pages/page-requests';
import { PAR_PATHS } from './modules/oauth/par/par.controller';
import { DEVICE_AUTHORIZATION_PATHS } from './modules/oauth/device/device-authorization.controller';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  AUTHORIZE_PATHS,
  OIDC_API_ALIASES,
} from './modules/oauth/discovery/oidc-aliases.controller';
import { createOpenApiDocument, OPENAPI_PATH } from './openapi/openapi-document';

/** Options of NestFactory.create: bodies are parsed by configureApp, not Nest's default parsers. */
export const NEST_APP_OPTIONS = { bufferLogs: true, bodyParser: false } as const;

/** HTTP-level settings shared by main.ts and the e2e tests, so tests run the real stack. */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const config = app.get(AppConfig);
  // Metrics: first, so every request is counted and timed whole (a no-op without METRICS_PORT).
  useHttpMetrics(app);
  // The access log and request id next, so a body refused before routing is logged too.
  const logs = serviceLogs(config.logLevel);
  express.use(logs.accessLog);
  express.useLogger(logs.nestLogger);
  express.disable('x-powered-by');
  express.set('trust proxy', config.trustProxyHops);
  express.use(helmet());
  useBodyParsers(express, config.servesHttps);
  // Then no page reads a query or form holding NUL or another control character (a 400 page).
  // (Not the pushed authorization request and device authorization endpoints under /oauth2:
  // clients' APIs, not pages.)
  const apis = [...PAR_PATHS, ...DEVICE_AUTHORIZATION_PATHS];
  const handlers = pageRequests(config.servesHttps).map(exceptOn(apis));
  express.use(firstMatchingMount([{ prefixes: PAGE_PATHS, handlers }]));
  // OpenAPI description of the HTTP API, browsable at /api/docs (JSON at /api/docs-json); the
  // same function writes docs/openapi.json (npm run openapi, docs/openapi.md).
  SwaggerModule.setup(OPENAPI_PATH, app, () => createOpenApiDocument(app));
}

/**
 * The browser pages, and only they, read cookies (session, CSRF, the upstream attempt, the
 * language switcher's) and speak the visitor's language (docs/languages.md): the authorization
 * flow's pages and their aliases of the original service, the upstream sign-in, the account
 * pages and the console's pages. The APIs (token, user info, the application and console JSON
 * APIs) never do. Mounted here once by prefix, not per route by each module: Express tries every
 * layer in turn, and per-route mounting put about a hundred of them before every route.
 */
export const PAGE_PATHS = [
  '/oauth2',
  '/api/oidc/auth',
  '/api/oidc/logout',
  '/api/auth/upstream',
  '/account',
  '/console',
  '/device',
];

/**
 * Every body is read here, once, before routing (NEST_APP_OPTIONS turns Nest's parsers off), with
 * limits and strict UTF-8 (docs/errors.md). Errors raised here never reach the controllers'
 * filters, so the OAuth families and the account page render theirs right after their parsers; the application API
 * and the rest go on to the global filter's `{error, message}`.
 */
function useBodyParsers(express: NestExpressApplication, secure: boolean): void {
  express.use(firstMatchingMount(bodyReaders(secure)));
}

/**
 * Which requests read their body how, the first prefix that covers the path deciding (one
 * Express layer, src/common/http/prefix-mounts.ts).
 */
function bodyReaders(secure: boolean): PrefixMount[] {
  const reading = (
    policy: BodyPolicy,
    prefixes: readonly string[],
    onError?: ErrorRequestHandler,
  ): PrefixMount => ({ prefixes, handlers: readBody(policy), onError });
  return [
    // POST /oauth2/authorize (OIDC Core 3.1.2.1): its form is parsed like the GET query string
    // (Express's "simple" parser: repeated names become arrays, brackets mean nothing), so the
    // pipeline sees the same parameters either way.
    reading({ form: 'query', otherTypes: 'refuse' }, AUTHORIZE_PATHS, pageBodyErrors(secure)),
    // POST /oauth2/par (RFC 9126): an authorization request too, so its form is read like the
    // authorization endpoint's; but it answers JSON (RFC 9126 section 2.3), never a page.
    reading({ form: 'query', otherTypes: 'refuse' }, PAR_PATHS, oauthBodyErrors),
    // POST /oauth2/device_authorization (RFC 8628): a client's form, read like the token endpoint's.
    reading({ form: true, otherTypes: 'refuse' }, DEVICE_AUTHORIZATION_PATHS, oauthBodyErrors),
    reading({ form: true, otherTypes: 'refuse' }, ['/api/oauth2'], oauthBodyErrors),
    // The original service's paths of the same endpoints (docs/oidc.md, "Aliases").
    reading({ form: true, otherTypes: 'refuse' }, OIDC_API_ALIASES, oauthBodyErrors),
    // Every other browser page (PAGE_PATHS): the sign-in, consent and logout forms, the account
    // page's, the device page's (RFC 8628), the upstream bind form, the console's pages. The same
    // rules and the same HTML error pages, never the JSON APIs' error format.
    reading({ form: true, otherTypes: 'refuse' }, PAGE_PATHS, pageBodyErrors(secure)),
    // The application API's PATCH answers other media types itself (400 invalid_body).
    reading({ json: true, otherTypes: 'ignore' }, ['/api/v1/app']),
    reading({ json: true, form: true, otherTypes: 'ignore' }, ['/']),
  ];
}

/**
 * `middleware`, skipped for requests to one of `paths` (as Express routes them: any case, a
 * trailing slash allowed).
 */
function exceptOn(paths: readonly string[]): (middleware: RequestHandler) => RequestHandler {
  const skipped = (path: string): boolean => paths.includes(path.toLowerCase().replace(/\/+$/, ''));
  return (middleware) => (req, res, next) =>
    skipped(req.baseUrl + req.path) ? next() : middleware(req, res, next);
}
