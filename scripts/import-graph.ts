/**
 * The import graph of src/, read from the code: which file imports which, and which folder.
 *
 *   npx ts-node --transpile-only scripts/import-graph.ts          print the figures
 *   npx ts-node --transpile-only scripts/import-graph.ts --json   the same as JSON
 *
 * Every non-spec .ts file under src/ is read with the TypeScript compiler's pre-processor; every
 * relative import counts, `import type` and `import()` included (a loop of types is still a loop
 * a reader has to untangle). A file's *area* is the folder that owns it:
 * `src/modules/<name>` for a module, otherwise the first folder under `src` (`src/common`,
 * `src/config`, ...), and `src` itself for the files at the top.
 *
 * The figures are the ones docs/architecture.md states: areas, arrows between areas, levels (the
 * longest chain of arrows, plus one), loops of files and of areas, and the arrows that run inside
 * a loop of areas (the ones that point back up). `src/import-graph.spec.ts` holds the rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(__dirname, '..');
const SRC = join(ROOT, 'src');

const toPosix = (path: string): string => path.split(sep).join('/');

/** Every .ts file under dir that is not a spec or a declaration, as repository paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      const isSource =
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.spec.ts') &&
        !entry.name.endsWith('.d.ts');
      return isSource ? [toPosix(relative(ROOT, path))] : [];
    })
    .sort();
}

/** The area of a repository path: `src/modules/<name>`, `src/<name>` or `src`. */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'modules' && parts.length > 3) return parts.slice(0, 3).join('/');
  if (parts.length > 2) return parts.slice(0, 2).join('/');
  return 'src';
}

export interface ImportGraph {
  files: string[];
  /** file -> the project files it imports. */
  imports: Map<string, Set<string>>;
}

/** Reads the relative imports of every source file under src/. */
export function importGraph(): ImportGraph {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = new Set<string>();
    for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
      if (!reference.fileName.startsWith('.')) continue;
      const base = toPosix(relative(ROOT, resolve(ROOT, dirname(file), reference.fileName)));
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((path) => known.has(path));
      if (target && target !== file) targets.add(target);
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** Strongly connected components with more than one node (Tarjan), each sorted. */
export function loops(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** area -> the other areas its files import. */
export function areaArrows(graph: ImportGraph): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const [file, targets] of graph.imports) {
    const from = areaOf(file);
    if (!arrows.has(from)) arrows.set(from, new Set());
    for (const target of targets) {
      const to = areaOf(target);
      if (to !== from) arrows.get(from)!.add(to);
    }
  }
  return arrows;
}

/** Pairs of areas that import each other, as "a <-> b" with a < b. */
export function mutualPairs(arrows: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [from, targets] of arrows) {
    for (const to of targets) {
      if (from < to && arrows.get(to)?.has(from)) pairs.push(`${from} <-> ${to}`);
    }
  }
  return pairs.sort();
}

/** The level of each area: 1 for one that imports no area, else one above the highest it imports
 * (arrows inside a loop are left out, so a loop does not count forever). */
function levels(arrows: Map<string, Set<string>>, inLoop: Set<string>): Map<string, number> {
  const level = new Map<string, number>();
  const visiting = new Set<string>();
  const of = (area: string): number => {
    const known = level.get(area);
    if (known !== undefined) return known;
    visiting.add(area);
    let highest = 0;
    for (const to of arrows.get(area) ?? []) {
      if (inLoop.has(`${area} -> ${to}`) || visiting.has(to)) continue;
      highest = Math.max(highest, of(to));
    }
    visiting.delete(area);
    level.set(area, highest + 1);
    return highest + 1;
  };
  for (const area of arrows.keys()) of(area);
  return level;
}

export interface Figures {
  files: number;
  fileImports: number;
  fileLoops: string[][];
  areas: number;
  areaArrows: number;
  levels: number;
  areaLoops: string[][];
  arrowsInsideLoops: number;
  mutualPairs: string[];
}

export function figures(graph: ImportGraph = importGraph()): Figures {
  const arrows = areaArrows(graph);
  const areaLoops = loops(arrows);
  const loopOf = new Map<string, number>();
  areaLoops.forEach((members, i) => members.forEach((area) => loopOf.set(area, i)));
  const inLoop = new Set<string>();
  for (const [from, targets] of arrows) {
    for (const to of targets) {
      if (loopOf.has(from) && loopOf.get(from) === loopOf.get(to)) inLoop.add(`${from} -> ${to}`);
    }
  }
  const levelOf = levels(arrows, inLoop);
  return {
    files: graph.files.length,
    fileImports: [...graph.imports.values()].reduce((sum, targets) => sum + targets.size, 0),
    fileLoops: loops(graph.imports),
    areas: arrows.size,
    areaArrows: [...arrows.values()].reduce((sum, targets) => sum + targets.size, 0),
    levels: Math.max(...levelOf.values()),
    areaLoops,
    arrowsInsideLoops: inLoop.size,
    mutualPairs: mutualPairs(arrows),
  };
}

if (require.main === module) {
  const result = figures();
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const lines = [
      `files ${result.files}, imports between them ${result.fileImports}, file loops ${result.fileLoops.length}`,
      `areas ${result.areas}, arrows between areas ${result.areaArrows}, levels ${result.levels}`,
      `loops of areas ${result.areaLoops.length}, arrows inside them ${result.arrowsInsideLoops}`,
      `areas importing each other: ${result.mutualPairs.length}`,
      ...result.mutualPairs.map((pair) => `  ${pair}`),
      ...result.fileLoops.map((members) => `file loop: ${members.join(', ')}`),
      ...result.areaLoops.map((members) => `area loop: ${members.join(', ')}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
