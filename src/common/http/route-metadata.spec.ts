import { SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadata } from './route-metadata';

const ROLE = 'test:role';
const TAGS = 'test:tags';
const Flag = Reflector.createDecorator<boolean>();

@SetMetadata(ROLE, 'class')
@SetMetadata(TAGS, ['class'])
class Annotated {
  @SetMetadata(ROLE, 'handler')
  @SetMetadata(TAGS, ['handler'])
  @Flag(true)
  overridden(): void {}

  plain(): void {}
}

class Other {
  @SetMetadata(ROLE, 'other')
  overridden(): void {}
}

const handler = (cls: { prototype: object }, name: string): (() => void) =>
  (cls.prototype as Record<string, () => void>)[name];

describe('RouteMetadata', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers every question as Nest’s Reflector does', () => {
    const memo = new RouteMetadata();
    const nest = new Reflector();
    const cases: [string, Parameters<Reflector['get']>[1]][] = [
      [ROLE, handler(Annotated, 'overridden')],
      [ROLE, handler(Annotated, 'plain')],
      [ROLE, Annotated],
      [ROLE, handler(Other, 'overridden')],
      ['test:absent', Annotated],
    ];
    for (const [key, target] of cases) {
      for (let i = 0; i < 2; i++) expect(memo.get(key, target)).toEqual(nest.get(key, target));
    }
    for (const name of ['overridden', 'plain']) {
      const targets = [handler(Annotated, name), Annotated];
      for (let i = 0; i < 2; i++) {
        expect(memo.getAllAndOverride(ROLE, targets)).toBe(nest.getAllAndOverride(ROLE, targets));
        expect(memo.getAllAndMerge(TAGS, targets)).toEqual(nest.getAllAndMerge(TAGS, targets));
      }
    }
    expect(memo.getAllAndOverride(ROLE, [handler(Annotated, 'overridden'), Annotated])).toBe(
      'handler',
    );
    expect(memo.getAllAndOverride(ROLE, [handler(Annotated, 'plain'), Annotated])).toBe('class');
    expect(memo.get(Flag, handler(Annotated, 'overridden'))).toBe(true);
    expect(memo.get(Flag, handler(Annotated, 'plain'))).toBeUndefined();
  });

  it('reads each key of each target from the metadata once, absent ones included', () => {
    const memo = new RouteMetadata();
    const reads = jest.spyOn(Reflect, 'getMetadata');
    const targets = [handler(Annotated, 'plain'), Annotated];
    for (let i = 0; i < 5; i++) {
      expect(memo.getAllAndOverride(ROLE, targets)).toBe('class');
      expect(memo.getAllAndOverride('test:absent', targets)).toBeUndefined();
    }
    // Two targets × two keys, whatever the number of requests.
    expect(reads).toHaveBeenCalledTimes(4);
    expect(new Reflector().getAllAndOverride(ROLE, targets)).toBe('class');
    expect(reads).toHaveBeenCalledTimes(6);
  });

  it('keeps the answers of different instances apart', () => {
    const first = new RouteMetadata();
    const reads = jest.spyOn(Reflect, 'getMetadata');
    first.get(ROLE, Annotated);
    new RouteMetadata().get(ROLE, Annotated);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
