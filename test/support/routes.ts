import type { INestApplication } from '@nestjs/common';

export interface RouteInfo {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the Express app registered (Express 5 keeps them on `app.router.stack`). */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path }))
      : [],
  );
}

/** A concrete URL for a route pattern: `:param` segments become a plausible value. */
export function concretePath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => (/id$/i.test(name) ? '1' : 'x'));
}
