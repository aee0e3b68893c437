import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { firstMatchingMount, isUnder, type PrefixMount } from './prefix-mounts';

/** A handler that appends `name` to the request's trail, or fails as `failure` says. */
const mark =
  (name: string, failure?: 'next' | 'throw'): RequestHandler =>
  (req, _res, next) => {
    const trail = ((req as unknown as { trail?: string[] }).trail ??= []);
    trail.push(name);
    if (failure === 'throw') throw new Error(`${name} threw`);
    next(failure === 'next' ? new Error(`${name} failed`) : undefined);
  };

const answering =
  (status: number): ErrorRequestHandler =>
  (error: Error, _req, res, _next) => {
    res.status(status).json({ handledBy: status, message: error.message });
  };

/** An app with `mounts` in one layer, then a route answering the trail for every path. */
function appWith(mounts: PrefixMount[]): express.Express {
  const app = express();
  app.use(firstMatchingMount(mounts));
  app.use((req, res) => {
    res.json({ trail: (req as unknown as { trail?: string[] }).trail ?? [] });
  });
  app.use(answering(500));
  return app;
}

describe('isUnder (Express mount semantics)', () => {
  it.each([
    ['/oauth2', '/oauth2', true],
    ['/oauth2', '/oauth2/', true],
    ['/oauth2', '/oauth2/token', true],
    ['/oauth2', '/OAuth2/Token', true],
    ['/api/oauth2', '/api/oauth2/userinfo', true],
    ['/oauth2', '/oauth2x', false],
    ['/oauth2', '/oauth', false],
    ['/oauth2', '/api/oauth2', false],
    ['/', '/anything/at/all', true],
    ['/', '/', true],
  ])('%s covers %s: %s', (prefix, path, expected) => {
    expect(isUnder(prefix, path)).toBe(expected);
  });
});

describe('firstMatchingMount', () => {
  const mounts: PrefixMount[] = [
    {
      prefixes: ['/oauth2/authorize', '/api/oidc/auth'],
      handlers: [mark('authorize-1'), mark('authorize-2')],
      onError: answering(400),
    },
    { prefixes: ['/oauth2'], handlers: [mark('oauth2')], onError: answering(401) },
    {
      prefixes: ['/fails'],
      handlers: [mark('before'), mark('fails', 'next'), mark('never')],
      onError: answering(402),
    },
    {
      prefixes: ['/throws'],
      handlers: [mark('throws', 'throw'), mark('never')],
      onError: answering(403),
    },
    { prefixes: ['/unhandled'], handlers: [mark('unhandled', 'next')] },
  ];
  const app = appWith(mounts);

  it('runs only the first mount covering the path, its handlers in order, then goes on', async () => {
    await request(app)
      .get('/oauth2/authorize?x=1')
      .expect(200, { trail: ['authorize-1', 'authorize-2'] });
    await request(app)
      .get('/API/OIDC/AUTH')
      .expect(200, { trail: ['authorize-1', 'authorize-2'] });
    await request(app)
      .get('/oauth2/token')
      .expect(200, { trail: ['oauth2'] });
  });

  it('leaves a request under no prefix untouched', async () => {
    await request(app).get('/oauth2x').expect(200, { trail: [] });
    await request(app).get('/console').expect(200, { trail: [] });
  });

  it("sends a failure passed to next to the mount's error handler and stops its handlers", async () => {
    await request(app).get('/fails/here').expect(402, { handledBy: 402, message: 'fails failed' });
  });

  it("sends a handler's thrown error to the mount's error handler", async () => {
    await request(app).get('/throws').expect(403, { handledBy: 403, message: 'throws threw' });
  });

  it('passes a failure on to the next error handler when the mount has none', async () => {
    await request(app)
      .get('/unhandled')
      .expect(500, { handledBy: 500, message: 'unhandled failed' });
  });
});
