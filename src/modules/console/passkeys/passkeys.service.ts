import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { AuditLog, type AuditRecord } from '../../audit/audit-log.service';
import type { ConsoleActor } from '../session/console-session';
import { isUuid, PasskeyCeremonies, PROMPT_TIMEOUT_MS } from '../../passkeys/passkey-ceremonies';
import { PasskeyConfirmations } from './confirmations/passkey-confirmations.service';
import { PasskeyCredential } from '../../passkeys/passkey-credential.entity';
import { PasskeyCeremonyStart, toPasskeyView, type PasskeyView } from '../../passkeys/passkey-view';
import { PasskeyRegistration, PasskeyRename } from './passkey.dto';
import {
  passkeyNotFound,
  recentSignInRequired,
  registrationRefused,
} from '../../passkeys/passkeys.errors';
import { isRecentPrimarySignIn } from '../../sessions/recent-sign-in';
import { RelyingParty } from '../../passkeys/relying-party';

const DEFAULT_NAME = 'Passkey';

/**
 * Passkeys of console accounts (docs/console.md "Passkeys and confirmations"): registration
 * and the account page's list, rename and remove (signing in is PasskeySignInService's).
 */
@Injectable()
export class PasskeysService {
  constructor(
    @InjectRepository(PasskeyCredential)
    private readonly credentials: Repository<PasskeyCredential>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly confirmations: PasskeyConfirmations,
    private readonly audit: AuditLog,
    private readonly rp: RelyingParty,
    private readonly clock: Clock,
  ) {}

  /** One of the user's passkeys, or 404 (another user's passkey is not found either). */
  async get(userId: string, id: string): Promise<PasskeyCredential> {
    const found = isUuid(id) ? await this.credentials.findOneBy({ id, userId }) : null;
    if (!found) throw passkeyNotFound();
    return found;
  }

  /**
   * Starts a registration. The first passkey needs a password (or upstream provider) sign-in
   * within 5 minutes; a later one a `passkey.register` confirmation, spent here.
   */
  async registrationOptions(
    actor: ConsoleActor,
    confirmation: string | undefined,
  ): Promise<PasskeyCeremonyStart> {
    const mine = await this.credentials.find({
      where: { userId: actor.user.id },
      select: { credentialId: true, transports: true, userHandle: true },
      order: { createdAt: 'ASC' },
    });
    if (mine.length === 0) {
      if (!isRecentPrimarySignIn(actor, this.clock.now())) throw recentSignInRequired();
    } else {
      await this.confirmations.consume(actor.user.id, 'passkey.register', {}, confirmation);
    }
    // One random user handle per user, shared by all their passkeys: an authenticator then
    // keeps one discoverable credential per account and site instead of piling them up.
    const userHandle = mine[0]?.userHandle ?? randomBytes(32).toString('base64url');
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: actor.user.username,
      userDisplayName: actor.user.nickname || actor.user.username,
      userID: Buffer.from(userHandle, 'base64url'),
      attestationType: 'none',
      excludeCredentials: mine.map((c) => ({ id: c.credentialId, transports: c.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: PROMPT_TIMEOUT_MS,
    });
    const ceremony = await this.ceremonies.start({
      purpose: 'registration',
      userId: actor.user.id,
      challenge: options.challenge,
      userHandle,
    });
    return { ceremonyId: ceremony.id, options };
  }

  /** Verifies the attestation of a started registration and stores the passkey. */
  async register(actor: ConsoleActor, body: PasskeyRegistration): Promise<PasskeyView> {
    const name = body.name?.trim() ?? DEFAULT_NAME;
    const response = body.response;
    const ceremony = await this.ceremonies.take(body.ceremonyId, 'registration', actor.user.id);
    if (!ceremony?.userHandle) {
      throw registrationRefused('the registration is unknown, expired or already answered');
    }
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch {
      throw registrationRefused('the authenticator response could not be verified');
    }
    if (!verified.verified) {
      throw registrationRefused('the authenticator response could not be verified');
    }
    const info = verified.registrationInfo;
    const credential = this.credentials.create({
      id: randomUUID(),
      credentialId: info.credential.id,
      userId: actor.user.id,
      userHandle: ceremony.userHandle,
      name,
      publicKey: Buffer.from(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    });
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(PasskeyCredential, credential).catch(rethrowDuplicate);
      await this.audit.record(
        auditEntry(actor, 'passkey.register', credential, { name: credential.name }),
        manager,
      );
    });
    return toPasskeyView(credential);
  }

  async rename(actor: ConsoleActor, id: string, body: PasskeyRename): Promise<PasskeyView> {
    const credential = await this.get(actor.user.id, id);
    const name = body.name.trim();
    await this.dataSource.transaction(async (manager) => {
      await manager.update(PasskeyCredential, { id: credential.id }, { name });
      await this.audit.record(
        auditEntry(actor, 'passkey.rename', credential, { from: credential.name, name }),
        manager,
      );
    });
    credential.name = name;
    return toPasskeyView(credential);
  }

  /** Removes a passkey with a `passkey.remove` confirmation for it. */
  async remove(actor: ConsoleActor, id: string, confirmation: string | undefined): Promise<void> {
    const credential = await this.get(actor.user.id, id);
    await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'passkey.remove',
        { passkeyId: credential.id },
        confirmation,
        manager,
      );
      await manager.delete(PasskeyCredential, { id: credential.id });
      await this.audit.record(
        auditEntry(actor, 'passkey.remove', credential, { name: credential.name }),
        manager,
      );
    });
  }
}

function auditEntry(
  actor: ConsoleActor,
  action: string,
  credential: PasskeyCredential,
  details: Record<string, string>,
): AuditRecord {
  return {
    applicationId: null,
    actorUserId: actor.user.id,
    action,
    target: `passkey:${credential.id}`,
    details,
    ip: actor.ip,
  };
}

/** A credential id registered twice (to any account) is a conflict, not a server error. */
function rethrowDuplicate(error: unknown): never {
  if (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string }).code === '23505'
  ) {
    throw new AppError(ErrorCode.Conflict, 'This passkey is already registered');
  }
  throw error;
}
