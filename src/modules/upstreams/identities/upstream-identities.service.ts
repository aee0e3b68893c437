import { addressHeldByAnother, claimsAddress } from '../../users/address-holder';
import { emailKey, normalEmail } from '../../users/account-names';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError, Repository } from 'typeorm';
import { Clock } from '../../../common/clock';
import { UserEmail } from '../../users/user-email.entity';
import { User } from '../../users/user.entity';
import { UpstreamIdentity, type UpstreamProfileSnapshot } from './upstream-identity.entity';
import { baseUsername, candidateUsername } from './usernames';

/** A verified profile from a provider, as the flow hands it over. */
export interface UpstreamAccount {
  providerId: string;
  subject: string;
  profile: UpstreamProfileSnapshot;
}

export type SignInOutcome =
  | { kind: 'existing'; user: User; identity: UpstreamIdentity }
  | { kind: 'created'; user: User; identity: UpstreamIdentity }
  /** The provider vouches for an email another account holds: never linked by email alone. */
  | { kind: 'email_taken' };

export type UnbindOutcome =
  { kind: 'unbound'; identity: UpstreamIdentity } | { kind: 'not_found' } | { kind: 'last_method' };

export type BindOutcome = { kind: 'bound'; identity: UpstreamIdentity } | { kind: 'taken' };

const USERNAME_ATTEMPTS = 20;

/** Upstream identities: who is bound to which provider account, and accounts they create. */
@Injectable()
export class UpstreamIdentitiesService {
  constructor(
    @InjectRepository(UpstreamIdentity) private readonly identities: Repository<UpstreamIdentity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  listForUser(userId: string): Promise<UpstreamIdentity[]> {
    return this.identities.find({ where: { userId }, order: { id: 'ASC' } });
  }

  /**
   * The user bound to this provider account, or a new user for an unknown one
   * (docs/upstreams.md, "Accounts"). The snapshot and last-use time are refreshed on every sign-in.
   */
  async signIn(account: UpstreamAccount): Promise<SignInOutcome> {
    const existing = await this.signInExisting(account);
    if (existing) return existing;
    try {
      return await this.create(account);
    } catch (error) {
      // A concurrent first sign-in of the same account won the unique (provider, subject) race.
      if (isUniqueViolation(error, 'uq_upstream_identities_provider_subject')) {
        const raced = await this.signInExisting(account);
        if (raced) return raced;
      }
      throw error;
    }
  }

  /**
   * Binds a provider account to a signed-in user; refused when another user holds it. With a
   * manager, in its transaction (the caller records the binding in the same one).
   */
  async bind(
    userId: string,
    account: UpstreamAccount,
    manager?: EntityManager,
  ): Promise<BindOutcome> {
    const runner = manager ?? this.dataSource.manager;
    const found = await runner.getRepository(UpstreamIdentity).findOneBy({
      providerId: account.providerId,
      subject: account.subject,
    });
    if (found)
      return found.userId === userId ? { kind: 'bound', identity: found } : { kind: 'taken' };
    try {
      // A (sub)transaction of its own: a lost race rolls back to here, not the caller's whole one.
      const identity = await runner.transaction((inner) =>
        inner.getRepository(UpstreamIdentity).save({
          providerId: account.providerId,
          subject: account.subject,
          userId,
          profile: account.profile,
          lastUsedAt: this.clock.now(),
        }),
      );
      return { kind: 'bound', identity };
    } catch (error) {
      if (isUniqueViolation(error, 'uq_upstream_identities_provider_subject'))
        return { kind: 'taken' };
      throw error;
    }
  }

  /**
   * Removes one of the user's bindings, unless it is the last way to sign in at the login page
   * (no password and no other binding; passkeys sign in to the console only). With a manager,
   * in its transaction.
   */
  async unbind(userId: string, identityId: number, outer?: EntityManager): Promise<UnbindOutcome> {
    return (outer ?? this.dataSource.manager).transaction(async (manager) => {
      // Locks the user's row: two concurrent unbinds cannot both see "another way" left.
      const users = await manager.query<{ password_hash: string | null }[]>(
        'SELECT password_hash FROM users WHERE id = $1 FOR UPDATE',
        [userId],
      );
      const repo = manager.getRepository(UpstreamIdentity);
      const identity = await repo.findOneBy({ id: identityId, userId });
      if (!identity || users.length === 0) return { kind: 'not_found' };
      const others = await repo.countBy({ userId });
      if (users[0].password_hash === null && others <= 1) return { kind: 'last_method' };
      await repo.delete({ id: identity.id });
      return { kind: 'unbound', identity };
    });
  }

  private async signInExisting(account: UpstreamAccount): Promise<SignInOutcome | null> {
    const identity = await this.identities.findOneBy({
      providerId: account.providerId,
      subject: account.subject,
    });
    if (!identity) return null;
    const users = this.dataSource.getRepository(User);
    const user = await users.findOneBy({ id: identity.userId });
    if (!user) return null;
    const now = this.clock.now();
    identity.profile = account.profile;
    identity.lastUsedAt = now;
    user.lastLoginAt = now;
    await this.identities.save(identity);
    await users.update({ id: user.id }, { lastLoginAt: now });
    const email = normalEmail(account.profile.email ?? '');
    if (email !== null && account.profile.emailVerified) await this.adoptVerifiedEmail(user, email);
    return { kind: 'existing', user, identity };
  }

  /**
   * A new account. Only an address the provider calls verified is claimed: it becomes the
   * primary email (refused when another account holds it: never linked by email alone). An
   * unverified one is kept as a non-primary, unverified entry of user_emails, which reserves
   * nothing, and the account's email stays '' (docs/upstreams.md, "Accounts").
   */
  private async create(account: UpstreamAccount): Promise<SignInOutcome> {
    const email = normalEmail(account.profile.email ?? '');
    const verified = email !== null && account.profile.emailVerified;
    if (verified && (await addressHeldByAnother(this.dataSource.manager, email, null))) {
      return { kind: 'email_taken' };
    }
    const base = baseUsername(account.profile.username, account.providerId);
    for (let n = 0; n < USERNAME_ATTEMPTS; n += 1) {
      try {
        return await this.dataSource.transaction((manager) =>
          this.insertUser(manager, account, candidateUsername(base, n), email, verified),
        );
      } catch (error) {
        // Another account claimed the verified address since the check above.
        if (claimsAddress(error)) return { kind: 'email_taken' };
        if (!isUniqueViolation(error, 'uq_users_lower_username')) throw error;
      }
    }
    throw new Error(`No free username derived from ${base} after ${USERNAME_ATTEMPTS} attempts`);
  }

  private async insertUser(
    manager: EntityManager,
    account: UpstreamAccount,
    username: string,
    email: string | null,
    verified: boolean,
  ): Promise<SignInOutcome> {
    const now = this.clock.now();
    const user = await manager.getRepository(User).save({
      username,
      email: verified && email !== null ? email : '',
      nickname: (account.profile.username ?? '').slice(0, 64),
      avatar: account.profile.avatar ?? '',
      emailVerified: verified,
      passwordHash: null,
      lastLoginAt: now,
    });
    if (email !== null) {
      await manager
        .getRepository(UserEmail)
        .save({ userId: user.id, email, verified, primary: verified, visibility: 'public' });
    }
    const identity = await manager.getRepository(UpstreamIdentity).save({
      providerId: account.providerId,
      subject: account.subject,
      userId: user.id,
      profile: account.profile,
      lastUsedAt: now,
    });
    return { kind: 'created', user, identity };
  }

  /**
   * A bound provider now vouches for `email`: an entry of the account with that address
   * becomes verified, and an account without a primary email takes it as its primary, unless
   * another account holds it (then nothing changes). Other addresses are not added.
   */
  private async adoptVerifiedEmail(user: User, email: string): Promise<void> {
    if (user.emailVerified && emailKey(user.email) === email) return;
    try {
      await this.dataSource.transaction(async (manager) => {
        // The user's row is locked: two sign-ins of one account adopt an address once.
        const rows = await manager.query<{ email: string }[]>(
          'SELECT email FROM users WHERE id = $1 FOR UPDATE',
          [user.id],
        );
        if (rows.length === 0) return;
        const primary = emailKey(rows[0].email);
        const entries = await manager.query<{ id: string; verified: boolean }[]>(
          'SELECT id, verified FROM user_emails WHERE user_id = $1 AND lower(email) = $2',
          [user.id, email],
        );
        const entry = entries[0];
        const becomesPrimary = primary === '' || primary === email;
        if (!becomesPrimary && (!entry || entry.verified)) return;
        if (await addressHeldByAnother(manager, email, user.id)) return;
        if (entry) {
          await manager.query(
            'UPDATE user_emails SET verified = true, "primary" = "primary" OR $2 WHERE id = $1',
            [entry.id, becomesPrimary],
          );
        } else if (becomesPrimary) {
          await manager
            .getRepository(UserEmail)
            .save({ userId: user.id, email, verified: true, primary: true, visibility: 'public' });
        }
        if (becomesPrimary) {
          await manager.getRepository(User).update({ id: user.id }, { email, emailVerified: true });
          user.email = email;
          user.emailVerified = true;
        }
      });
    } catch (error) {
      // Another account claimed the address at the same moment: it keeps it.
      if (!claimsAddress(error)) throw error;
    }
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = error.driverError as { code?: string; constraint?: string } | undefined;
  return (
    driver?.code === '23505' &&
    (driver.constraint === undefined || driver.constraint === constraint)
  );
}
