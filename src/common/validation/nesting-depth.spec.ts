import { MAX_NESTING_DEPTH, nestedDeeperThan } from './nesting-depth';

describe('nestedDeeperThan', () => {
  const nest = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  };

  it('counts objects and arrays alike, a scalar being no level', () => {
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [] }, 1)).toBe(true);
    expect(nestedDeeperThan(nest(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH)).toBe(false);
    expect(nestedDeeperThan(nest(MAX_NESTING_DEPTH + 1), MAX_NESTING_DEPTH)).toBe(true);
  });

  it('walks fifty thousand levels without running out of stack', () => {
    expect(nestedDeeperThan(JSON.parse(`${'['.repeat(50_000)}${']'.repeat(50_000)}`), 16)).toBe(
      true,
    );
  });
});
