import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The rendered SQL of the hot paths' statements, committed beside the code that builds them
 * (`sql/*.sql`), so a reader sees each statement whole without running anything. Each feature
 * lists its statements in a `rendered-sql.ts` (its `rendered-sql.spec.ts` fails when a committed
 * file differs from what the code runs); `npm run sql:render` (scripts/render-sql.ts) rewrites
 * every file. Nothing here knows a feature.
 */
export interface RenderedStatement {
  /** The absolute path of the committed `.sql` file. */
  file: string;
  /** The builder and its arguments, e.g. `exchangeStatement('public')`. */
  builder: string;
  /** The absolute path of the file that defines the builder. */
  source: string;
  /** What the statement is for (one line). */
  purpose: string;
  /** The statement's text, exactly as it is sent to the server. */
  text: string;
}

/** The repository root: the folder above src/. */
export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..');

/** The repository-relative path of `file`, with forward slashes. */
export const repositoryPath = (file: string): string =>
  relative(REPOSITORY_ROOT, file).split('\\').join('/');

/**
 * The file's content: one comment line naming the builder (and its source file) and the
 * statement's purpose, then the text as sent, then a newline.
 */
export const renderedFile = (s: RenderedStatement): string =>
  `-- ${s.builder} in ${repositoryPath(s.source)}: ${s.purpose}\n${s.text}\n`;

/** The command that rewrites every committed file. */
export const RENDER_COMMAND = 'npm run sql:render';

/** A description of how the committed file differs from the rendering, or null when it is equal. */
export function renderedSqlDrift(s: RenderedStatement): string | null {
  const expected = renderedFile(s);
  const path = repositoryPath(s.file);
  if (!existsSync(s.file))
    return `${path} is missing (the rendered SQL of ${s.builder}); run \`${RENDER_COMMAND}\` and commit it`;
  const actual = readFileSync(s.file, 'utf8');
  if (actual === expected) return null;
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  const line = expectedLines.findIndex((text, i) => text !== actualLines[i]);
  const at = line === -1 ? actualLines.length : line;
  return [
    `${path} is not the SQL ${s.builder} renders (first difference at line ${at + 1}).`,
    `  committed: ${JSON.stringify(actualLines[at] ?? '<end of file>')}`,
    `  rendered:  ${JSON.stringify(expectedLines[at] ?? '<end of file>')}`,
    `Run \`${RENDER_COMMAND}\` and commit the file if the change is meant.`,
  ].join('\n');
}

/** Writes the file of each statement; answers the repository paths that changed. */
export function writeRenderedSql(statements: readonly RenderedStatement[]): string[] {
  const changed: string[] = [];
  for (const s of statements) {
    const content = renderedFile(s);
    if (existsSync(s.file) && readFileSync(s.file, 'utf8') === content) continue;
    mkdirSync(dirname(s.file), { recursive: true });
    writeFileSync(s.file, content);
    changed.push(repositoryPath(s.file));
  }
  return changed;
}

/**
 * The `.sql` files in the folders of `statements` that no statement renders (one left behind by
 * a renamed or removed statement), as repository paths.
 */
export function orphanedSqlFiles(statements: readonly RenderedStatement[]): string[] {
  const rendered = new Set(statements.map((s) => s.file));
  const folders = [...new Set(statements.map((s) => dirname(s.file)))].filter(existsSync);
  return folders
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.endsWith('.sql'))
        .map((name) => join(folder, name)),
    )
    .filter((file) => !rendered.has(file))
    .map(repositoryPath);
}
