import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';
import { createOpenApiDocument, openApiJson } from './openapi/openapi-document';

/** The committed document, relative to the repository root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/**
 * The document without a server, a database or Redis: Nest's preview mode reads the modules,
 * controllers and decorators but instantiates no provider, so nothing connects anywhere. The
 * configuration is the development default; the document does not depend on it.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config), {
    preview: true,
    logger: false,
    bodyParser: false,
  });
  try {
    return createOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/**
 * `npm run openapi` writes docs/openapi.json; `npm run -s openapi:check` (CI) exits 1 when the
 * committed file differs from what the code generates, naming the first differing line.
 */
async function main(argv: string[]): Promise<number> {
  // dist/openapi-generate.js: the repository is one folder up.
  const file = resolve(__dirname, '..', OPENAPI_FILE);
  const generated = openApiJson(await buildOpenApiDocument());
  if (!argv.includes('--check')) {
    writeFileSync(file, generated);
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
    return 0;
  }
  let committed: string;
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    committed = '';
  }
  if (committed === generated) return 0;
  process.stderr.write(
    `${OPENAPI_FILE} is not what the code generates (${firstDifference(committed, generated)}).\n` +
      `Run \`npm run openapi\` and commit ${OPENAPI_FILE}.\n`,
  );
  return 1;
}

function firstDifference(committed: string, generated: string): string {
  if (committed === '') return 'the file is missing or empty';
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `first difference at line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end of file>')}, generated ${JSON.stringify(b[at] ?? '<end of file>')}`;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`openapi: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(2);
    },
  );
}
