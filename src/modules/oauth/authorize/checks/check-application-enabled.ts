import type { Application } from '../../../applications/application.entity';
import { OAuthError } from '../../protocol/oauth-error';

/** A disabled application cannot authorize anyone (docs/contract/oauth.md#authorization-response: access_denied). */
export function checkApplicationEnabled(application: Application): void {
  if (!application.enabled) {
    throw new OAuthError('access_denied', 'The application is disabled');
  }
}
