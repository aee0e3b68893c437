import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorBody } from '../common/errors/error-body.openapi';
import { SECURITY_SCHEMES } from '../common/http/openapi-security';
import { addConsoleGuardDocs } from './console-security';

/** Where the service serves the document: the UI at /api/docs, the JSON at /api/docs-json. */
export const OPENAPI_PATH = 'api/docs';

/** Operations of one path, in the order a reader expects them (not the order modules load). */
const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The OpenAPI document of an application built from AppModule: what /api/docs-json serves and
 * what `npm run openapi` writes to docs/openapi.json. It depends on the code only (no base URL,
 * port, package version or time), so the committed file changes only when the API does.
 */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Identity service')
    .setDescription(
      'Application-level user management API (/api/v1/app, application API key), OAuth 2.0 ' +
        'authorization server (authorization code with PKCE, refresh, user info, user emails, ' +
        'RFC 8414 metadata) and the owner console API (/api/console, browser session). Errors: ' +
        '`{error, message}` on /api/v1/app and /api/console, RFC 6749 `{error, error_description}` ' +
        'on the OAuth JSON endpoints.',
    )
    // The API's version (the v1 of /api/v1/app), not package.json's: a release must not change it.
    .setVersion('1');
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) builder.addSecurity(name, scheme);
  // ErrorBody always: the console's guard refusals refer to it (console-security.ts).
  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: [ErrorBody],
  });
  addConsoleGuardDocs(app, document);
  return canonical(document);
}

/**
 * Paths, their operations and the components in a fixed order, so the JSON text depends on what
 * is declared, not on the order in which Nest loaded modules. Inside a schema or an operation the
 * declaration order is kept: it is the order a reader of the class or decorator expects.
 */
function canonical(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.keys(document.paths)
      .sort(byCodePoint)
      .map((path) => {
        const item = document.paths[path] as Record<string, unknown>;
        const keys = Object.keys(item).sort((a, b) => rank(a) - rank(b) || byCodePoint(a, b));
        return [path, Object.fromEntries(keys.map((key) => [key, item[key]]))];
      }),
  );
  const components = Object.fromEntries(
    Object.entries(document.components ?? {})
      .sort(([a], [b]) => byCodePoint(a, b))
      .map(([kind, entries]) => [kind, sortedKeys(entries as Record<string, unknown>)]),
  );
  const tags = document.tags && [...document.tags].sort((a, b) => byCodePoint(a.name, b.name));
  return { ...document, paths, components, ...(tags ? { tags } : {}) };
}

function rank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}

/** Not localeCompare: the order must not depend on the machine's locale. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedKeys<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => byCodePoint(a, b)));
}

/** The document as committed: two-space JSON with a final newline. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
