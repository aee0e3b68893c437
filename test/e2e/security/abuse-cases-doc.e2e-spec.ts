import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/security.md, "Abuse cases": every row of every table names at least one test file that
 * exists, and every test it names by its title is in one of the files the row cites. A row whose
 * test is renamed, moved or deleted fails here, so the table cannot drift from the suite.
 */

const ROOT = join(__dirname, '..', '..', '..');

interface Row {
  surface: string;
  attack: string;
  tests: string;
}

/** The rows of the tables under "## Abuse cases", with the subsection each belongs to. */
function abuseRows(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');
  const start = doc.indexOf('\n## Abuse cases\n');
  const end = doc.indexOf('\n## ', start + 1);
  const rows: Row[] = [];
  let surface = '';
  for (const line of doc.slice(start, end).split('\n')) {
    if (line.startsWith('### ')) surface = line.slice(4);
    if (!line.startsWith('| ') || /^\|\s*-/.test(line) || line.startsWith('| attack ')) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    rows.push({ surface, attack: cells[0], tests: cells[2] ?? '' });
  }
  return rows;
}

/** Every test file of the suite and beside the source, by its path and by its base name. */
function testFiles(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(e2e-)?spec\.ts$/.test(entry.name)) {
        byName.set(path, [path]);
        byName.set(entry.name, [...(byName.get(entry.name) ?? []), path]);
      }
    }
  };
  walk('test');
  walk('src');
  return byName;
}

/** The test titles a cell quotes: `file` ("title", "title …"), with "…" marking a shortened one. */
function quotedTitles(cell: string): string[] {
  const titles: string[] = [];
  const pattern = /(?<=\(|, |; )"(.+?)"(?=\)|,|: `|;| \()/g;
  for (const match of cell.matchAll(pattern)) {
    titles.push(match[1].replace(/,?\s*…$/, '').trim());
  }
  return titles;
}

describe('docs/security.md abuse-case tables', () => {
  const rows = abuseRows();
  const files = testFiles();

  it('has rows for every surface, and no placeholder left', () => {
    const surfaces = new Set(rows.map((row) => row.surface));
    for (const surface of [
      'OAuth provider endpoints',
      'Client authentication with keys (private_key_jwt)',
      'ID token signing algorithms',
      'Login page',
      'Sign-up',
      'Email verification',
      'Password reset',
      'Account page',
      'Passkeys',
      'Upstream sign-in',
      'Console',
      'Console roles',
      'Application API',
      'Webhooks',
      'Mail',
      'Metrics and traces',
      'Configuration',
    ]) {
      expect([surface, surfaces.has(surface)]).toEqual([surface, true]);
    }
    expect(readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8')).not.toContain('Rows to come');
  });

  it('names, in every row, test files that exist and titles found in them', () => {
    const problems: string[] = [];
    for (const row of rows) {
      const where = `${row.surface} / ${row.attack}`;
      const cited = [...row.tests.matchAll(/`([^`\s]+\.ts)`/g)].map((m) => m[1]);
      if (cited.length === 0) problems.push(`${where}: no test file`);
      const paths: string[] = [];
      for (const file of cited) {
        // A path must be the file's own (a moved file's old path is stale); a bare name is looked up.
        const found = files.get(file);
        if (found === undefined) problems.push(`${where}: ${file} does not exist`);
        else if (found.length > 1 && !file.includes('/')) {
          problems.push(`${where}: ${file} names ${found.length} files; give its path`);
        } else paths.push(...found);
      }
      const sources = paths.map((path) =>
        readFileSync(join(ROOT, path), 'utf8').replace(/\\(['"`\\])/g, '$1'),
      );
      for (const title of quotedTitles(row.tests)) {
        if (!sources.some((source) => source.includes(title))) {
          problems.push(`${where}: no test "${title}" in ${cited.join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
