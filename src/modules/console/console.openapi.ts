import { ApiErrorResponse } from '../../common/errors/error-body.openapi';

/**
 * OpenAPI helpers of the console routes. The role answers (404/403) come from @ApplicationRole
 * and the session, CSRF and 415 answers from the guard: the document builder adds both
 * (src/openapi/console-security.ts).
 */
export const BadBody = (codes: string): MethodDecorator => ApiErrorResponse(400, codes);
export const Conflict = (when: string): MethodDecorator =>
  ApiErrorResponse(409, `conflict: ${when}`);
