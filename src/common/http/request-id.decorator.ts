import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The request's id (set by pino-http in access-log.ts, answered in X-Request-Id), for a handler
 * to hand to code that logs about the request as `requestId`: the id travels with the request,
 * never in an AsyncLocalStorage (docs/operations.md, "Logs").
 */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const { id } = ctx.switchToHttp().getRequest<Request>();
  // accessLogOptions' genReqId answers a string; pino-http's type also allows numbers and objects.
  return typeof id === 'string' ? id : '';
});
