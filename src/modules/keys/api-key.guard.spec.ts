import type { ExecutionContext } from '@nestjs/common';
import { RouteMetadata } from '../../common/http/route-metadata';
import { ApiKeyGuard } from './api-key.guard';
import type { ApiKeysService } from './api-keys.service';

class Undeclared {}
const handler = (): void => undefined;

/** A route without any scope declaration, reached with a valid-looking key. */
function contextFor(): ExecutionContext {
  const request = { headers: { authorization: `Bearer svc_live_${'A'.repeat(32)}` } };
  return {
    getHandler: () => handler,
    getClass: () => Undeclared,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
  } as unknown as ExecutionContext;
}

describe('ApiKeyGuard', () => {
  it('refuses a route that declares no scopes, before looking at the key', async () => {
    const authenticate = jest.fn();
    const guard = new ApiKeyGuard(new RouteMetadata(), {
      authenticate,
    } as unknown as ApiKeysService);
    await expect(guard.canActivate(contextFor())).rejects.toMatchObject({
      status: 500,
      message: 'This route declares no scopes',
    });
    expect(authenticate).not.toHaveBeenCalled();
  });
});
