import { inputProblem } from './control-characters';
import { MAX_NESTING_DEPTH } from './nesting-depth';

/** Whether `parsed` nests objects or arrays more than `limit` levels deep. */
const nestedDeeperThan = (parsed: unknown, limit: number): boolean =>
  inputProblem(parsed, limit) === 'too_deep';

describe('inputProblem: nesting depth', () => {
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

  it('finds nesting too deep before a control character, and either alone', () => {
    expect(inputProblem({ a: [['\u0000']] }, 2)).toBe('too_deep');
    expect(inputProblem({ a: ['\u0000'] }, 2)).toBe('control_character');
    expect(inputProblem({ 'a\n': 'b' }, 2)).toBe('control_character');
    expect(inputProblem({ a: ['b'] }, 2)).toBeNull();
  });
});
