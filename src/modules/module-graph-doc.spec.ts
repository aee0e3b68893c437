import {
  currentDocBlock,
  importedNames,
  moduleGraph,
  renderModuleGraph,
} from '../../scripts/module-graph';

/**
 * docs/architecture.md shows the graph of Nest module imports that scripts/module-graph.ts draws
 * from the code; this fails when the block between its markers is not that drawing.
 */
describe('module graph in docs/architecture.md', () => {
  const graph = moduleGraph();
  const edges = new Set(graph.edges.map((edge) => `${edge.from} -> ${edge.to}`));

  it('is the graph drawn from the code (npm run docs:graph)', () => {
    const expected = renderModuleGraph(graph);
    const actual = currentDocBlock();
    if (actual !== expected) {
      const want = expected.split('\n');
      const have = actual.split('\n');
      const line = want.findIndex((text, i) => text !== have[i]);
      const at = line < 0 ? want.length : line;
      throw new Error(
        'The module graph in docs/architecture.md is stale: run npm run docs:graph ' +
          `(first difference at line ${at + 1} of the block: expected ${JSON.stringify(want[at])}, ` +
          `found ${JSON.stringify(have[at])})`,
      );
    }
  });

  it('reads the imports of decorators and of dynamic modules', () => {
    // A plain @Module import, X.forRoot() in a static forRoot(), a module outside *.module.ts.
    expect(edges).toContain('UsersModule -> TokensModule');
    expect(edges).toContain('ServiceModule -> AppModule');
    expect(edges).toContain('CliModule -> ConfigModule');
    expect(edges).toContain('AdminCommandsModule -> PasskeyRecoveryModule');
    expect(graph.nodes.find((node) => node.id === 'PasskeyRecoveryModule')?.folder).toBe(
      'src/modules/passkeys',
    );
  });

  it("keeps only the project's own modules as nodes", () => {
    const ids = graph.nodes.map((node) => node.id);
    expect(ids).not.toContain('TypeOrmModule');
    expect(ids).not.toContain('LoggerModule');
    expect(ids).toEqual([...ids].sort());
  });

  it('understands forwardRef, calls on a module, spreads and conditionals', () => {
    expect(
      importedNames(
        'forwardRef(() => A), TypeOrmModule.forFeature([E]), B.forRoot(c), ...[C], d ? D : F, "x"',
      ),
    ).toEqual([
      { name: 'A', forwardRef: true },
      { name: 'TypeOrmModule', forwardRef: false },
      { name: 'B', forwardRef: false },
      { name: 'C', forwardRef: false },
      { name: 'D', forwardRef: false },
      { name: 'F', forwardRef: false },
    ]);
  });
});
