import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { hashPassword, verifyPassword } from '../users/password';
import { User } from '../users/user.entity';
import { LoginThrottle } from './login-throttle';

export type LoginOutcome = { kind: 'ok'; user: User } | { kind: 'failed' } | { kind: 'throttled' };

/** Local-account sign-in: username or email plus password (scrypt, see users/password.ts). */
@Injectable()
export class LoginService {
  private dummyHash?: Promise<string>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async authenticate(identifier: string, password: string, address: string): Promise<LoginOutcome> {
    const account = identifier.trim().toLowerCase();
    if (await this.throttle.isBlocked(address, account)) return { kind: 'throttled' };
    const user = await this.findByIdentifier(identifier.trim());
    // Unknown users and users without a password cost one hash too, so timing tells nothing.
    const ok = user?.passwordHash
      ? await verifyPassword(password, user.passwordHash)
      : await this.burnHash(password);
    if (!user || !ok) {
      await this.throttle.recordFailure(address, account);
      return { kind: 'failed' };
    }
    user.lastLoginAt = this.clock.now();
    await this.users.update({ id: user.id }, { lastLoginAt: user.lastLoginAt });
    return { kind: 'ok', user };
  }

  /**
   * Usernames and emails are unique regardless of case, so either spelling names one account;
   * the comparison is the expression of the unique indexes on lower(...) (migration
   * CaseInsensitiveUserNames), which serve it.
   */
  private findByIdentifier(identifier: string): Promise<User | null> {
    if (identifier === '' || identifier.length > 254) return Promise.resolve(null);
    const column = identifier.includes('@') ? 'email' : 'username';
    return this.users
      .createQueryBuilder('u')
      .where(`lower(u.${column}) = lower(:identifier)`, { identifier })
      .getOne();
  }

  private async burnHash(password: string): Promise<false> {
    this.dummyHash ??= hashPassword('not-a-real-password', this.config.passwordHashCost);
    await verifyPassword(password, await this.dummyHash);
    return false;
  }
}
