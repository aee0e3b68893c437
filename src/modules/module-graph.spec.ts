import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { moduleGraph, type ModuleGraph } from '../../scripts/module-graph';

/**
 * Dependencies between Nest modules run one way, from the feature that uses to the feature that
 * owns: UsersModule imports TokensModule (disabling a relation revokes its tokens), so
 * TokensModule never imports UsersModule. This reads the graph of `@Module({ imports })` that
 * docs/architecture.md draws (scripts/module-graph.ts) and fails on any cycle, through
 * forwardRef too: a forwardRef is a cycle Nest tolerates, not one we want. Folders are feature
 * trees (src/modules/console holds nine modules); a file may import another module's entity,
 * type or decorator without importing that module, so the rule is on modules, not folders.
 *
 * Shared helpers live in src/common, which imports no feature; src/database imports no
 * feature either, but for the entity list.
 */
const SRC = resolve(__dirname, '..');
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

/** Module id → the module ids it imports. */
function adjacency(graph: ModuleGraph): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of graph.edges) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  return next;
}

function reachableFrom(next: Map<string, Set<string>>, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    for (const to of next.get(queue.pop()!) ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

/** Each import a → b where b also reaches a, with a's file, for the failure message. */
function edgesInCycles(graph: ModuleGraph): string[] {
  const next = adjacency(graph);
  const fileOf = new Map(graph.nodes.map((node) => [node.id, node.file]));
  return graph.edges
    .filter(({ from, to }) => reachableFrom(next, to).has(from))
    .map(({ from, to, forwardRef }) => {
      const how = forwardRef ? ' through forwardRef' : '';
      return `${from} → ${to}${how} (${fileOf.get(from)})`;
    })
    .sort();
}

describe('module graph', () => {
  const graph = moduleGraph();

  it('reads the imports between Nest modules', () => {
    // Edges the rule keeps, so the reader is not blind: users own relations whose tokens the
    // tokens module revokes; the console's key routes spend passkey confirmations, which sit
    // on the console's sessions.
    const edges = graph.edges.map(({ from, to }) => `${from} → ${to}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        'UsersModule → TokensModule',
        'ConsoleKeysModule → ConsolePasskeysModule',
        'ConsolePasskeysModule → ConsoleSessionModule',
      ]),
    );
  });

  it('fails on a cycle, naming each import in it', () => {
    const looped: ModuleGraph = {
      nodes: ['A', 'B', 'C'].map((id) => ({ id, className: id, file: `${id}.ts`, folder: '.' })),
      edges: [
        { from: 'A', to: 'B', forwardRef: false },
        { from: 'B', to: 'A', forwardRef: true },
        { from: 'B', to: 'C', forwardRef: false },
      ],
    };
    expect(edgesInCycles(looped)).toEqual(['A → B (A.ts)', 'B → A through forwardRef (B.ts)']);
  });

  it('has no import cycle between Nest modules', () => {
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
