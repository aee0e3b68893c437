import type { AppConfig } from '../../../config/app-config';
import type { Application } from '../../applications/application.entity';

/**
 * Whether a login page offers "Create an account" (docs/accounts.md, "Sign-up"): the deployment
 * allows sign-up (SIGNUP_ENABLED), the application's owner turned it on, and the request offers
 * password sign-in (a sign-up makes a password account). The sign-up routes refuse otherwise.
 */
export function signUpOffered(
  config: Pick<AppConfig, 'signUpEnabled'>,
  application: Pick<Application, 'signUpEnabled'>,
  passwordOffered: boolean,
): boolean {
  return config.signUpEnabled && application.signUpEnabled && passwordOffered;
}
