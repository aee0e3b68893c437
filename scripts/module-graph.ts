/**
 * The graph of Nest module imports, drawn from the code into docs/architecture.md.
 *
 *   npx ts-node --transpile-only scripts/module-graph.ts           print the Mermaid block
 *   npx ts-node --transpile-only scripts/module-graph.ts --write   rewrite it in the doc (npm run docs:graph)
 *   npx ts-node --transpile-only scripts/module-graph.ts --check   exit 1 when the doc is stale
 *
 * Every non-spec .ts file under src/ is parsed with the TypeScript compiler API (no type
 * checking). A node is a class decorated with `@Module(...)`; its edges are the `imports` of the
 * decorator and of the dynamic modules its static methods return (`{ module: ThisClass, imports }`,
 * as `AppModule.forRoot()` does). An entry of `imports` counts when it names a project module:
 * `X`, `forwardRef(() => X)` (drawn dashed), `X.forRoot(...)`/`X.register(...)` or any other call on
 * X, `...[X, Y]`, `cond ? X : Y`. Identifiers are resolved through the file's relative imports
 * (re-exports followed) to the class; package modules (`TypeOrmModule.forFeature(...)`,
 * `LoggerModule.forRoot(...)`, `DiscoveryModule`) are not nodes. A relative import the script
 * cannot resolve to a module class fails loudly rather than drop an edge.
 *
 * `src/modules/module-graph-doc.spec.ts` renders the same block and fails when the doc differs.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(__dirname, '..');
export const SRC = join(ROOT, 'src');
export const DOC = join(ROOT, 'docs', 'architecture.md');
export const START_MARKER = '<!-- module-graph:start -->';
export const END_MARKER = '<!-- module-graph:end -->';

export interface ModuleNode {
  /** The Mermaid node id: the class name, made unique with its folder if two classes share it. */
  id: string;
  className: string;
  /** File path relative to the repository, with forward slashes. */
  file: string;
  /** Folder relative to the repository, with forward slashes. */
  folder: string;
}

export interface ModuleEdge {
  from: string;
  to: string;
  /** Imported through `forwardRef(() => X)`. */
  forwardRef: boolean;
}

export interface ModuleGraph {
  nodes: ModuleNode[];
  edges: ModuleEdge[];
}

/** A module class before ids are assigned: file (absolute) + class name. */
interface ModuleClass {
  file: string;
  className: string;
  importEntries: ts.Expression[];
}

/** A reference an `imports` entry makes: the identifier and whether it went through forwardRef. */
interface ImportRef {
  name: string;
  forwardRef: boolean;
  at: ts.Node;
}

const toPosix = (path: string): string => path.split(sep).join('/');

/** Every .ts file under dir that is not a spec or a declaration, sorted. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      const isSource =
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.spec.ts') &&
        !entry.name.endsWith('.d.ts');
      return isSource ? [path] : [];
    })
    .sort();
}

const parsed = new Map<string, ts.SourceFile>();

function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

/** The arguments of a `@Module(...)` decorator on the class, if it has one. */
function moduleDecoratorArgument(node: ts.ClassDeclaration): ts.Expression | undefined | null {
  for (const decorator of ts.getDecorators(node) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call)) continue;
    const callee = call.expression;
    const name = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : undefined;
    if (name === 'Module') return call.arguments[0];
  }
  return null;
}

function propertyNamed(
  object: ts.ObjectLiteralExpression,
  name: string,
): ts.Expression | undefined {
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = property.name;
    if ((ts.isIdentifier(key) || ts.isStringLiteral(key)) && key.text === name) {
      return property.initializer;
    }
  }
  return undefined;
}

/** The elements of an `imports: [...]` value. */
function arrayElements(value: ts.Expression | undefined, where: ts.SourceFile): ts.Expression[] {
  if (!value) return [];
  if (ts.isArrayLiteralExpression(value)) return [...value.elements];
  throw new Error(
    `${toPosix(relative(ROOT, where.fileName))}: \`imports\` is not an array literal ` +
      `(${value.getText(where)}); scripts/module-graph.ts cannot read it`,
  );
}

/** `@Module({ imports })` and every `{ module: ClassName, imports }` returned in the class body. */
function importEntriesOf(node: ts.ClassDeclaration, source: ts.SourceFile): ts.Expression[] {
  const entries: ts.Expression[] = [];
  const argument = moduleDecoratorArgument(node);
  if (argument && ts.isObjectLiteralExpression(argument)) {
    entries.push(...arrayElements(propertyNamed(argument, 'imports'), source));
  }
  const className = node.name?.text;
  const visit = (child: ts.Node): void => {
    if (ts.isObjectLiteralExpression(child)) {
      const module = propertyNamed(child, 'module');
      if (module && ts.isIdentifier(module) && module.text === className) {
        entries.push(...arrayElements(propertyNamed(child, 'imports'), source));
      }
    }
    ts.forEachChild(child, visit);
  };
  for (const member of node.members) visit(member);
  return entries;
}

/** The identifiers an `imports` entry names (none for an expression that names no class). */
function refsOf(entry: ts.Expression, viaForwardRef = false): ImportRef[] {
  if (ts.isIdentifier(entry)) return [{ name: entry.text, forwardRef: viaForwardRef, at: entry }];
  if (ts.isParenthesizedExpression(entry) || ts.isAsExpression(entry)) {
    return refsOf(entry.expression, viaForwardRef);
  }
  if (ts.isSpreadElement(entry)) {
    if (ts.isArrayLiteralExpression(entry.expression)) {
      return entry.expression.elements.flatMap((element) => refsOf(element, viaForwardRef));
    }
    return refsOf(entry.expression, viaForwardRef);
  }
  if (ts.isConditionalExpression(entry)) {
    return [...refsOf(entry.whenTrue, viaForwardRef), ...refsOf(entry.whenFalse, viaForwardRef)];
  }
  if (ts.isCallExpression(entry)) {
    const callee = entry.expression;
    // forwardRef(() => X)
    if (ts.isIdentifier(callee) && callee.text === 'forwardRef') {
      const fn = entry.arguments[0];
      if (fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
        if (ts.isBlock(fn.body)) {
          const returned = fn.body.statements.find(ts.isReturnStatement)?.expression;
          return returned ? refsOf(returned, true) : [];
        }
        return refsOf(fn.body, true);
      }
      return [];
    }
    // X.forRoot(...), X.forFeature(...), X.register(...): the module is X.
    if (ts.isPropertyAccessExpression(callee)) return refsOf(callee.expression, viaForwardRef);
    return [];
  }
  return [];
}

/** The class names an `imports` entry, given as source text, refers to (for the unit test). */
export function importedNames(entryText: string): { name: string; forwardRef: boolean }[] {
  const source = ts.createSourceFile('entry.ts', `[${entryText}]`, ts.ScriptTarget.Latest, true);
  const statement = source.statements[0];
  if (!statement || !ts.isExpressionStatement(statement)) return [];
  const array = statement.expression;
  if (!ts.isArrayLiteralExpression(array)) return [];
  return array.elements
    .flatMap((element) => refsOf(element))
    .map(({ name, forwardRef }) => ({ name, forwardRef }));
}

/** The file a relative specifier names, or undefined for a package. */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(
    `${toPosix(relative(ROOT, fromFile))}: cannot resolve import '${specifier}' (scripts/module-graph.ts)`,
  );
}

/**
 * Where `name`, as seen in `file`, is declared: [file, exported name], following relative
 * imports and re-exports; undefined when it comes from a package.
 */
function declarationOf(
  file: string,
  name: string,
  seen = new Set<string>(),
): { file: string; name: string } | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const source = parse(file);
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement) && statement.name?.text === name) return { file, name };
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        if (element.name.text !== name) continue;
        const target = resolveSpecifier(file, statement.moduleSpecifier.text);
        if (!target) return undefined;
        return declarationOf(target, (element.propertyName ?? element.name).text, seen);
      }
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (element.name.text !== name) continue;
          const target = resolveSpecifier(file, statement.moduleSpecifier.text);
          if (!target) return undefined;
          return declarationOf(target, (element.propertyName ?? element.name).text, seen);
        }
      } else if (!clause) {
        const target = resolveSpecifier(file, statement.moduleSpecifier.text);
        const found = target && declarationOf(target, name, seen);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** Every `@Module` class under src/, with its `imports` entries. */
function moduleClasses(): ModuleClass[] {
  const classes: ModuleClass[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = parse(file);
    if (!source.text.includes('Module')) continue;
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      if (moduleDecoratorArgument(statement) === null) continue;
      classes.push({
        file,
        className: statement.name.text,
        importEntries: importEntriesOf(statement, source),
      });
    }
  }
  return classes;
}

/** The graph of `@Module` imports between the project's own modules, sorted. */
export function moduleGraph(): ModuleGraph {
  parsed.clear();
  const classes = moduleClasses();
  const keyOf = (file: string, className: string): string => `${file}#${className}`;
  const byKey = new Map(classes.map((c) => [keyOf(c.file, c.className), c]));

  const nameCount = new Map<string, number>();
  for (const c of classes) nameCount.set(c.className, (nameCount.get(c.className) ?? 0) + 1);
  const ids = new Map<string, string>();
  const nodes: ModuleNode[] = classes.map((c) => {
    const folder = toPosix(relative(ROOT, dirname(c.file)));
    const unique = nameCount.get(c.className) === 1;
    const id = unique ? c.className : `${c.className}_${folder.replace(/[^A-Za-z0-9]/g, '_')}`;
    ids.set(keyOf(c.file, c.className), id);
    return { id, className: c.className, file: toPosix(relative(ROOT, c.file)), folder };
  });

  const edges = new Map<string, ModuleEdge>();
  for (const c of classes) {
    const from = ids.get(keyOf(c.file, c.className))!;
    for (const ref of c.importEntries.flatMap((entry) => refsOf(entry))) {
      const declared = declarationOf(c.file, ref.name);
      if (!declared) continue; // a package's module, or a local non-class value
      const to = ids.get(keyOf(declared.file, declared.name));
      if (!to) {
        if (!byKey.has(keyOf(declared.file, declared.name))) {
          const where = parse(c.file).getLineAndCharacterOfPosition(ref.at.getStart());
          throw new Error(
            `${toPosix(relative(ROOT, c.file))}:${where.line + 1}: ${c.className} imports ` +
              `${ref.name} (${toPosix(relative(ROOT, declared.file))}), which is not a @Module class`,
          );
        }
        continue;
      }
      const edgeKey = `${from}->${to}`;
      const existing = edges.get(edgeKey);
      // A module imported both directly and through forwardRef is drawn as a direct import.
      edges.set(edgeKey, {
        from,
        to,
        forwardRef: (existing?.forwardRef ?? true) && ref.forwardRef,
      });
    }
  }

  const byId = (a: { id: string }, b: { id: string }): number =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return {
    nodes: nodes.sort(byId),
    edges: [...edges.values()].sort((a, b) =>
      a.from === b.from ? (a.to < b.to ? -1 : 1) : a.from < b.from ? -1 : 1,
    ),
  };
}

/** The Mermaid block, fences included, that goes between the markers. */
export function renderModuleGraph(graph: ModuleGraph = moduleGraph()): string {
  const lines = [
    '```mermaid',
    'flowchart LR',
    ...graph.nodes.map((node) => `  ${node.id}["${node.className}<br/>${node.folder}"]`),
    ...graph.edges.map(
      (edge) => `  ${edge.from} ${edge.forwardRef ? '-. forwardRef .->' : '-->'} ${edge.to}`,
    ),
    '```',
  ];
  return lines.join('\n');
}

/** The text between the markers of the doc (without the marker lines), or an error. */
export function currentDocBlock(doc: string = readFileSync(DOC, 'utf8')): string {
  const start = doc.indexOf(START_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (start < 0 || end < start) {
    throw new Error(`docs/architecture.md has no ${START_MARKER} … ${END_MARKER} block`);
  }
  return doc
    .slice(start + START_MARKER.length, end)
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

/** The doc with its block replaced by `block`. */
export function withBlock(doc: string, block: string): string {
  currentDocBlock(doc); // the markers must be there
  const start = doc.indexOf(START_MARKER) + START_MARKER.length;
  const end = doc.indexOf(END_MARKER);
  return `${doc.slice(0, start)}\n${block}\n${doc.slice(end)}`;
}

function main(argv: string[]): number {
  const block = renderModuleGraph();
  if (argv.includes('--write')) {
    const doc = readFileSync(DOC, 'utf8');
    const next = withBlock(doc, block);
    if (next !== doc) writeFileSync(DOC, next);
    console.log(
      `docs/architecture.md: module graph ${next === doc ? 'already up to date' : 'rewritten'}`,
    );
    return 0;
  }
  if (argv.includes('--check')) {
    if (currentDocBlock() === block) return 0;
    console.error('docs/architecture.md: the module graph is stale; run npm run docs:graph');
    return 1;
  }
  console.log(block);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
