import { Injectable } from '@nestjs/common';
import { Reflector, type ReflectableDecorator } from '@nestjs/core';

/** What Reflector reads metadata from: a route handler or a controller class. */
type Target = Parameters<Reflector['get']>[1];

/**
 * Nest's Reflector that reads each (metadata key, handler or controller) once and remembers the
 * answer. The global guards ask the same questions on every request (is the route public, its
 * scopes, each named throttler's skip, limit and ttl: about thirty lookups for one application
 * API request), and `Reflect.getMetadata` answers a miss by walking the target's prototype chain
 * each time. Route metadata is written by decorators when the classes are defined, before any
 * request, and never changes afterwards, so a remembered answer stays true; the metadata key
 * or decorator is the lookup key, as in Reflector itself. Guards inject this class instead of
 * Reflector; boot-time readers may use either.
 */
@Injectable()
export class RouteMetadata extends Reflector {
  private readonly answers = new WeakMap<Target, Map<unknown, unknown>>();

  // Reflector.get's two signatures (a decorator, or a plain key), answered by one implementation.
  /* eslint-disable @typescript-eslint/no-explicit-any -- as declared by Reflector.get */
  override get<T extends ReflectableDecorator<any>>(
    decorator: T,
    target: Target,
  ): T extends ReflectableDecorator<any, infer R> ? R : unknown;
  override get<TResult = any, TKey = any>(metadataKey: TKey, target: Target): TResult;
  override get(metadataKeyOrDecorator: unknown, target: Target): unknown {
    /* eslint-enable @typescript-eslint/no-explicit-any */
    let byKey = this.answers.get(target);
    if (byKey === undefined) this.answers.set(target, (byKey = new Map()));
    if (byKey.has(metadataKeyOrDecorator)) return byKey.get(metadataKeyOrDecorator);
    const answer: unknown = super.get(metadataKeyOrDecorator, target);
    byKey.set(metadataKeyOrDecorator, answer);
    return answer;
  }
}
