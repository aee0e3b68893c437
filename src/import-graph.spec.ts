import { areaArrows, areaOf, figures, importGraph, loops } from '../scripts/import-graph';

/**
 * The arrows of src point down (docs/architecture.md, "Arrows point down"): no file imports
 * itself through others, no two folders of src (each folder under src/modules counted on its own)
 * import each other or sit on a loop, and the shared layers below the modules (common, config,
 * telemetry) import no module; src/database, which lists every entity, sits above the modules.
 */
describe('the import graph of src', () => {
  const graph = importGraph();
  const arrows = areaArrows(graph);

  it('has no import loop between files', () => {
    expect(figures(graph).fileLoops).toEqual([]);
  });

  it('has no loop between the folders of src/modules, two importing each other included', () => {
    const modules = new Map(
      [...arrows]
        .filter(([area]) => area.startsWith('src/modules/'))
        .map(([area, targets]) => [
          area,
          new Set([...targets].filter((to) => to.startsWith('src/modules/'))),
        ]),
    );
    expect(loops(modules)).toEqual([]);
  });

  it('has no loop between any folders of src, the layers below and above the modules included', () => {
    expect(loops(arrows)).toEqual([]);
  });

  it('keeps common, config and telemetry below every module', () => {
    const upward = [...graph.imports].flatMap(([file, targets]) =>
      ['src/common', 'src/config', 'src/telemetry'].includes(areaOf(file))
        ? [...targets]
            .filter((to) => areaOf(to).startsWith('src/modules/'))
            .map((to) => `${file} -> ${to}`)
        : [],
    );
    expect(upward).toEqual([]);
  });

  it('finds a loop and the folder of a file (the reader the rules stand on)', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(loops(edges)).toEqual([['a', 'b', 'c']]);
    expect(areaOf('src/modules/oauth/token/token.service.ts')).toBe('src/modules/oauth');
    expect(areaOf('src/common/http/html.ts')).toBe('src/common');
    expect(areaOf('src/main.ts')).toBe('src');
  });
});
