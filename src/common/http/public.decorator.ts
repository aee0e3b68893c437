import { SetMetadata } from '@nestjs/common';

/** The metadata key of `@Public()`; read by the global API-key guard and its boot check. */
export const PUBLIC_ROUTE = 'auth:public';

/**
 * The only opt-out of the global API-key guard: for routes with their own authentication
 * (OAuth endpoints, login pages, the console's session) or none (health). It lives in
 * src/common so that a feature opting out does not depend on the API-key module.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
