import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { msg, type Text } from '../../../common/i18n/i18n';
import { AppConfig } from '../../../config/app-config';
import { formText, type Params } from '../../../common/http/params';
import { PasswordCheckQueue, PasswordQueueFull } from '../../sessions/password-check-queue';
import { isValidUsername, normalEmail } from '../../users/account-names';
import { addressHeldByAnother } from '../../users/address-holder';
import { hashPassword } from '../../users/password';
import { passwordWeakness } from '../../users/password-policy';
import { passwordProblemText } from '../account-pages';
import { usernameTaken } from './sign-up-accounts';

/** The form as submitted, trimmed; the password is never shown again. */
export interface SignUpForm {
  username: string;
  email: string;
  password: string;
}

/** The form's checks passed (with the address as stored), or the page's status and reason. */
export type FormCheck =
  { kind: 'ok'; email: string } | { kind: 'refused'; status: number; error: Text };

/** What the sign-up form's answer rests on: its rules, whether the address has an account, the hash. */
@Injectable()
export class SignUpChecks {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: PasswordCheckQueue,
  ) {}

  /** The form's rules, in the order the page reports them; the address as stored. */
  async check(form: SignUpForm): Promise<FormCheck> {
    const refused = (status: number, error: Text): FormCheck => ({
      kind: 'refused',
      status,
      error,
    });
    if (!isValidUsername(form.username)) return refused(400, msg('signUp.usernameRule'));
    const email = normalEmail(form.email);
    if (email === null) return refused(400, msg('signUp.emailRule'));
    const weakness = await passwordWeakness(form.password, { username: form.username, email });
    if (weakness !== null) return refused(400, passwordProblemText(weakness));
    // A sign-up form must say that a username is taken (docs/accounts.md, "Sign-up").
    if (await usernameTaken(this.dataSource.manager, form.username)) {
      return refused(409, msg('signUp.usernameTaken', { username: form.username }));
    }
    return { kind: 'ok', email };
  }

  /** Whether the address (as stored) belongs to an account already. */
  held(email: string): Promise<boolean> {
    return addressHeldByAnother(this.dataSource.manager, email, null);
  }

  /** The scrypt hash, computed in the sign-ins' bounded queue; null when the queue is full. */
  async hash(password: string, clientAddress: string): Promise<string | null> {
    try {
      return await this.queue.run(clientAddress, () =>
        hashPassword(password, this.config.passwordHashCost),
      );
    } catch (error) {
      if (error instanceof PasswordQueueFull) return null;
      throw error;
    }
  }
}

export function readForm(body: Params): SignUpForm {
  return {
    username: formText(body.username).trim(),
    email: formText(body.email).trim(),
    password: formText(body.password),
  };
}
