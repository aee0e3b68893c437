import { METHODS } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Metrics } from '../../common/metrics/metrics';
import type { PromMetrics } from './prom-metrics';

/** The `route` label of a request no route answered (a 404, a body refused before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts and times every request of the main port by route template (Express's pattern of the
 * route that answered, `/api/v1/app/users/:userId`: never the raw path), method and status
 * class. Installed first by configureApp, and only when metrics are on: otherwise a request
 * does no metric work at all.
 */
export function useHttpMetrics(app: INestApplication): void {
  const metrics = app.get(Metrics);
  // Metrics on means MetricsModule provided prom-client's implementation.
  if (metrics.enabled) app.use(httpMetrics(metrics as PromMetrics));
}

function httpMetrics(metrics: PromMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const labels = {
        method: LABELLED_METHODS.has(req.method) ? req.method : 'OTHER',
        route: routeOf(req),
        status_class: `${Math.floor(res.statusCode / 100)}xx`,
      };
      metrics.httpRequest(labels, seconds);
    });
    next();
  };
}

/**
 * The pattern of the route that answered (Nest mounts every route whole on the app's router).
 * Nest also mounts route-scoped middleware (the access log's, on `/{*path}`) as a route for
 * every method Node knows; such a route answers nothing, so a request it is the last match of
 * is unmatched. No controller of this service answers every method.
 */
function routeOf(req: Request): string {
  const route = req.route as { path?: unknown; methods?: Record<string, boolean> } | undefined;
  if (typeof route?.path !== 'string' || route.methods === undefined) return UNMATCHED_ROUTE;
  const everyMethod = route.methods._all || Object.keys(route.methods).length >= METHODS.length;
  return everyMethod ? UNMATCHED_ROUTE : req.baseUrl + route.path;
}
