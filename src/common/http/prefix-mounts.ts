import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware for the requests under some path prefixes, what `express.use(prefixes, ...handlers,
 * onError)` mounts: the handlers in turn, then, if one of them failed, `onError` (or, without it,
 * the failure goes on to the next error handler).
 */
export interface PrefixMount {
  prefixes: readonly string[];
  handlers: readonly RequestHandler[];
  onError?: ErrorRequestHandler;
}

/**
 * Whether `path` is under `prefix` as Express mounts middleware: the prefix itself or anything
 * below it, in any case (Express routes case-insensitively), whole segments only (`/oauth2x` is
 * not under `/oauth2`); everything is under `/`.
 */
export function isUnder(prefix: string, path: string): boolean {
  return underLowerCase(prefix.toLowerCase(), path.toLowerCase());
}

/** isUnder of a prefix and a path both already in lower case. */
function underLowerCase(prefix: string, path: string): boolean {
  if (prefix === '/') return true;
  if (!path.startsWith(prefix)) return false;
  return path.length === prefix.length || path[prefix.length] === '/';
}

/**
 * One Express layer for several mounts, of which only the first whose prefix covers the request's
 * path runs; a request under none goes on untouched.
 *
 * Express tries every layer in turn against every request, a path-to-regexp match each, before it
 * reaches the route: the body readers and the page middleware mounted one layer per handler and
 * prefix put about forty of them in front of every route (docs/performance/oauth.md, "One layer
 * for the body readers"). The mounts given here are ones where the first that applies decides: a
 * body is read once, so later readers of the same request had nothing left to do.
 */
export function firstMatchingMount(mounts: readonly PrefixMount[]): RequestHandler {
  const lowerCase = mounts.map((mount) => mount.prefixes.map((p) => p.toLowerCase()));
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    const mount = mounts.find((_, i) => lowerCase[i].some((p) => underLowerCase(p, path)));
    if (!mount) return next();
    runInTurn(mount, req, res, next);
  };
}

/**
 * `mount`'s handlers one after the other, each on the previous one's `next()`; a failure, passed
 * to `next` or thrown, goes to `onError` as Express would send it to the mount's error handler.
 */
function runInTurn(mount: PrefixMount, req: Request, res: Response, next: NextFunction): void {
  const { handlers, onError } = mount;
  const fail = (error: unknown): void => {
    if (onError) onError(error, req, res, next);
    else next(error);
  };
  const step = (index: number): void => {
    if (index === handlers.length) return next();
    let done = false;
    try {
      handlers[index](req, res, (error?: unknown) => {
        done = true;
        if (error === undefined || error === null) step(index + 1);
        else fail(error);
      });
    } catch (error) {
      // Thrown by the handler itself; what the rest of the pipeline throws is not its failure.
      if (done) throw error;
      fail(error);
    }
  };
  step(0);
}
