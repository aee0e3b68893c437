import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Public } from '../../common/http/public.decorator';
import { NoScopes, RequireScopes } from './auth.decorators';
import { ScopeDeclarationCheck } from './scope-declarations';

@Controller('api/v1/app/things')
class ThingsController {
  @Get()
  @RequireScopes('user:read')
  list(): string {
    return 'ok';
  }

  @Get('mine')
  @NoScopes()
  mine(): string {
    return 'ok';
  }

  /** Forgot its declaration: would accept any key. */
  @Post()
  create(): string {
    return 'ok';
  }
}

@Public()
@Controller('open')
class OpenController {
  @Get()
  open(): string {
    return 'ok';
  }
}

async function boot(controllers: (new () => unknown)[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    controllers,
    providers: [ScopeDeclarationCheck],
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

describe('ScopeDeclarationCheck', () => {
  it('refuses to boot while a guarded route has no scope declaration, naming it', async () => {
    const app = await boot([ThingsController, OpenController]);
    await expect(app.init()).rejects.toThrow(
      'Routes without a scope declaration (see auth.decorators.ts): POST /api/v1/app/things',
    );
    await app.close();
  });

  it('lists each route with its declaration; @Public() routes need none', async () => {
    const app = await boot([OpenController]);
    await app.init();
    expect(app.get(ScopeDeclarationCheck).routes()).toEqual([
      { method: 'GET', path: '/open', scopes: undefined, public: true },
    ]);
    await app.close();
  });
});
