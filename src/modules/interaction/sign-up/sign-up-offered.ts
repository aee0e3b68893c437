import type { AppConfig } from '../../../config/app-config';
import type { Application } from '../../applications/application.entity';
import { mailModeOf } from '../../mail/mailer';

/**
 * Whether a login page offers "Create an account" (docs/accounts.md, "Sign-up"): the deployment
 * allows sign-up (SIGNUP_ENABLED), the application's owner turned it on, and the request offers
 * password sign-in (a sign-up makes a password account), and the code can reach the person (not
 * production without SMTP_URL, where no email is sent). The sign-up routes refuse otherwise.
 */
export function signUpOffered(
  config: Pick<AppConfig, 'signUpEnabled' | 'smtpUrl' | 'isProduction'>,
  application: Pick<Application, 'signUpEnabled'>,
  passwordOffered: boolean,
): boolean {
  const mailReaches = mailModeOf(config) !== 'off';
  return config.signUpEnabled && application.signUpEnabled && passwordOffered && mailReaches;
}
