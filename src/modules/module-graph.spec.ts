import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Dependencies between feature folders run one way. A key belongs to an application,
 * so `keys` may import `applications` but never the reverse; shared helpers live in src/common,
 * which imports no feature. This reads the relative imports of every file under src/modules
 * (specs included) and fails on any cycle between folders.
 */
const SRC = resolve(__dirname, '..');
const MODULES = join(SRC, 'modules');

/**
 * Features made of several Nest modules in sub-folders: each sub-folder is a node of its own.
 * `upstreams/sign-in` imports oauth, which imports `upstreams/providers` and
 * `upstreams/identities` (login page, userinfo). Imports between sub-folders of one such feature
 * are followed, but a cycle inside the feature is not reported.
 */
const SPLIT_FEATURES = new Set(['upstreams']);

/** The node of a path below src/modules: its folder, or feature/sub-folder for a split feature. */
function nodeOf(parts: string[]): string {
  const [top, sub] = parts;
  return SPLIT_FEATURES.has(top) && parts.length > 2 ? `${top}/${sub}` : top;
}

const featureOf = (node: string): string => node.split('/')[0];
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.\.?\/[^'"]+)['"]/g;

/** Every .ts file under dir, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files (relative to src) each file imports through a relative path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1])),
  );
}

/** Module folder → module folder → one importing file, as an example for the failure message. */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(MODULES)) {
    const from = nodeOf(relative(MODULES, file).split(sep));
    for (const target of importsOf(file)) {
      const [top, ...below] = target.split(sep);
      if (top !== 'modules') continue;
      const to = nodeOf(below);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, relative(SRC, file));
    }
  }
  return graph;
}

function reachableFrom(graph: Map<string, Map<string, string>>, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    for (const next of graph.get(queue.pop()!)?.keys() ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/** Each edge a → b where b also reaches a, with the file that makes it. */
function edgesInCycles(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const [to, file] of targets) {
      if (featureOf(from) === featureOf(to)) continue;
      if (reachableFrom(graph, to).has(from)) found.push(`${from} → ${to} (${file})`);
    }
  }
  return found.sort();
}

describe('module graph', () => {
  const graph = moduleGraph();

  it('reads the imports between feature folders', () => {
    // A key belongs to an application: the edge the rule keeps, so the parser is not blind.
    expect(graph.get('keys')?.has('applications')).toBe(true);
    // And the sub-folders of a split feature are nodes of their own.
    expect(graph.get('upstreams/sign-in')?.has('oauth')).toBe(true);
    expect(graph.get('oauth')?.has('upstreams/providers')).toBe(true);
  });

  it('has no import cycle between src/modules folders', () => {
    expect(edgesInCycles(graph)).toEqual([]);
  });

  it('keeps src/common free of imports from src/modules', () => {
    const offenders = sourceFiles(join(SRC, 'common')).filter((file) =>
      importsOf(file).some((target) => target.split(sep)[0] === 'modules'),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('keeps src/database free of imports from src/modules, but for the entity list', () => {
    // The statement helpers (statement.ts, rendered-sql.ts) know no feature; entities.ts lists
    // every module's entities for the data source.
    const offenders = sourceFiles(join(SRC, 'database')).filter(
      (file) =>
        relative(SRC, file) !== join('database', 'entities.ts') &&
        importsOf(file).some((target) => target.split(sep)[0] === 'modules'),
    );
    expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
  });
});
