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
    const from = relative(MODULES, file).split(sep)[0];
    for (const target of importsOf(file)) {
      const [top, to] = target.split(sep);
      if (top !== 'modules' || to === from) continue;
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
