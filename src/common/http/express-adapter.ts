import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Nest's Express adapter, with an HTTP server that builds each request and response with
 * Express's prototypes from the start (docs/performance/oauth.md, "Express's prototypes").
 *
 * Express hands every request and response its own prototype (`app.request`, `app.response`),
 * which add `req.ip`, `res.json` and the rest, by calling `Object.setPrototypeOf` on each in
 * `app.handle`. On V8 before 13.6 (Node 20 and 22), an object whose prototype changed after it
 * was built makes every later property access on it take a slow path, in Express and in Node's
 * own HTTP code alike: a bare Express route serves about a quarter of what the same route does
 * with this server. Node lets a server name the classes it builds requests and responses with,
 * so here they are subclasses of Node's whose prototypes are Express's; Express then finds the
 * prototype already in place and `Object.setPrototypeOf` changes nothing. What the handlers see
 * is the same: the same prototype chain, `req.app` the same application.
 *
 * HTTPS and `forceCloseConnections`, which the service uses neither of, keep Nest's server.
 */
export class ServiceExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      { IncomingMessage: expressRequestClass(app), ServerResponse: expressResponseClass(app) },
      app,
    );
  }
}

/** A subclass of Node's IncomingMessage whose prototype becomes the application's `request`. */
function expressRequestClass(app: Express): typeof IncomingMessage {
  class ExpressRequest extends IncomingMessage {}
  app.request = adoptPrototype(ExpressRequest.prototype, app.request, app);
  return ExpressRequest;
}

/** A subclass of Node's ServerResponse whose prototype becomes the application's `response`. */
function expressResponseClass(app: Express): typeof ServerResponse {
  class ExpressResponse<
    Request extends IncomingMessage = IncomingMessage,
  > extends ServerResponse<Request> {}
  app.response = adoptPrototype(ExpressResponse.prototype, app.response, app);
  return ExpressResponse;
}

/**
 * Makes `prototype` stand for Express's `current` (an object holding only `app`, over Express's
 * request or response methods): the same parent, the same `app` property.
 */
function adoptPrototype<T extends object>(prototype: object, current: T, app: Express): T {
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(current) as object);
  Object.defineProperty(prototype, 'app', {
    configurable: true,
    enumerable: true,
    writable: true,
    value: app,
  });
  return prototype as T;
}
