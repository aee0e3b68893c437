import { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { createApiKey, createApplication } from '../../factories';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * How many requests and responses had their prototype changed by Object.setPrototypeOf while
 * `send` ran: on Node before 24 each such change puts every later access to the object on a slow
 * path (docs/performance/oauth.md, "Express's prototypes").
 */
async function prototypeChanges(send: () => Promise<unknown>): Promise<number> {
  const original = Object.setPrototypeOf.bind(Object);
  let changes = 0;
  const spy = jest.spyOn(Object, 'setPrototypeOf').mockImplementation((target, prototype) => {
    const served = target instanceof IncomingMessage || target instanceof ServerResponse;
    if (served && Object.getPrototypeOf(target) !== prototype) changes += 1;
    return original(target, prototype);
  });
  try {
    await send();
    return changes;
  } finally {
    spy.mockRestore();
  }
}

@Controller()
class PingController {
  @Get('ping')
  ping(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

describe("the service's HTTP server builds requests and responses with Express's prototypes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('so Express changes no prototype, on the API, the token endpoint, a page or a miss', async () => {
    const { application } = await createApplication(t.app, { name: 'Prototypes' });
    const { plaintext } = await createApiKey(t.app, application.id, ['user:read']);
    const statuses: number[] = [];
    const changes = await prototypeChanges(async () => {
      const http = t.http();
      for (const res of [
        await http.get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`),
        await http
          .post('/api/oauth2/token')
          .type('form')
          .send({ grant_type: 'authorization_code' }),
        await http.get('/oauth2/authorize').query({ client_id: application.clientId }),
        await http.get('/no/such/route'),
      ]) {
        statuses.push(res.status);
      }
    });
    expect(statuses).toEqual([200, 401, 400, 404]);
    expect(changes).toBe(0);
  });

  it("while Nest's own Express server has Express change both, on every request", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PingModule] }).compile();
    const stock: INestApplication = moduleRef.createNestApplication({ logger: false });
    await stock.init();
    try {
      const changes = await prototypeChanges(async () => {
        for (let i = 0; i < 3; i += 1) {
          await supertest(stock.getHttpServer()).get('/ping').expect(200, { ok: true });
        }
      });
      expect(changes).toBe(6);
    } finally {
      await stock.close();
    }
  });
});
