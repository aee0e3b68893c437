import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * A service a newcomer can hold in their head (docs/architecture.md, "Services a newcomer can
 * hold in their head"): no `*.service.ts` under src/ has more than MAX_DEPENDENCIES injected
 * constructor parameters or more than MAX_LINES lines, unless the doc comment of its service
 * class has a paragraph starting with MARKER that says why.
 */
const MAX_DEPENDENCIES = 8;
const MAX_LINES = 300;
const MARKER = 'Why this service is larger:';

const ROOT = join(__dirname, '..', '..');

function serviceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serviceFiles(path);
    return entry.name.endsWith('.service.ts') ? [relative(ROOT, path)] : [];
  });
}

interface Measure {
  lines: number;
  dependencies: number;
  reasoned: boolean;
}

const isInjectable = (node: ts.ClassDeclaration): boolean =>
  (ts.getDecorators(node) ?? []).some((decorator) => {
    const call = decorator.expression;
    return (
      ts.isCallExpression(call) &&
      ts.isIdentifier(call.expression) &&
      call.expression.text === 'Injectable'
    );
  });

/** True when a doc comment of `node` has a paragraph starting with MARKER and a reason after it. */
function hasReason(node: ts.Node, source: ts.SourceFile): boolean {
  const text = source.getFullText();
  const paragraph = new RegExp(`(^|\\n)\\s*\\*?\\s*${MARKER}\\s*\\S`);
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
    .map((range) => text.slice(range.pos, range.end))
    .filter((comment) => comment.startsWith('/**'))
    .some((comment) => paragraph.test(comment));
}

/** Lines, and for its service classes (`@Injectable()`) the most constructor parameters. */
export function measure(path: string, text: string): Measure {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const classes = source.statements.filter(ts.isClassDeclaration);
  const injectable = classes.filter(isInjectable);
  const services = injectable.length > 0 ? injectable : classes;
  let dependencies = 0;
  let reasoned = false;
  for (const service of services) {
    const constructor = service.members.find(ts.isConstructorDeclaration);
    dependencies = Math.max(dependencies, constructor?.parameters.length ?? 0);
    reasoned ||= hasReason(service, source);
  }
  return { lines: text.replace(/\n$/, '').split('\n').length, dependencies, reasoned };
}

describe('service size', () => {
  const files = serviceFiles(join(ROOT, 'src'));

  it('finds the services', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each([
    [
      'decorated and modified parameters',
      `@Injectable()
       export class A {
         constructor(
           @Inject(AppConfig) private readonly config: AppConfig,
           @InjectDataSource() private readonly dataSource: DataSource,
           @InjectRepository(User) readonly users: Repository<User>,
           public readonly a: (x: number, y: number) => void,
           b: B,
         ) {}
       }`,
      5,
      false,
    ],
    [
      'the service class, not a DTO beside it',
      `export class Dto { constructor(a: string, b: string, c: string) {} }
       /**
        * Does one thing.
        *
        * Why this service is larger: it is one job.
        */
       @Injectable()
       export class A { constructor(private readonly b: B) {} }`,
      1,
      true,
    ],
    [
      'a marker with no reason after it',
      `/** Why this service is larger: */
       @Injectable() export class A {}`,
      0,
      false,
    ],
  ])('measures %s', (_name, text, dependencies, reasoned) => {
    expect(measure('x.service.ts', text)).toMatchObject({ dependencies, reasoned });
  });

  it(`has no service over ${MAX_DEPENDENCIES} dependencies or ${MAX_LINES} lines without "${MARKER}"`, () => {
    const over = files
      .map((path) => ({ path, ...measure(path, readFileSync(join(ROOT, path), 'utf8')) }))
      .filter((m) => !m.reasoned && (m.dependencies > MAX_DEPENDENCIES || m.lines > MAX_LINES))
      .map((m) => `${m.path}: ${m.lines} lines, ${m.dependencies} dependencies`);
    expect(over).toEqual([]);
  });
});
