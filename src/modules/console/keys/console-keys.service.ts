import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../../audit/audit-log.service';
import type { ConsoleActor } from '../session/console-session';
import type { ApiKey } from '../../keys/api-key.entity';
import { ApiKeysService } from '../../keys/api-keys.service';
import { keyNotFound, keyNotRotatable } from '../../keys/keys.errors';
import { positiveIntId } from '../../../common/validation/path-ids';
import { PasskeyConfirmations } from '../passkeys/confirmations/passkey-confirmations.service';
import type { ScopedApplication } from '../roles/application-role';
import type { NewKeyBody } from './key.dto';
import { toKeyView, type IssuedKeyView, type KeyView, type RotatedKeyView } from './key-views';

/**
 * The API-access tab (docs/contract/api-keys.md#key-lifecycle): keys of the
 * application whose admin role the routes' @ApplicationRole checked; every change needs a
 * passkey confirmation bound to the action and the key. The lifecycle is
 * ApiKeysService's, the one the CLI uses. A key of another application answers 404. The token,
 * the change and its audit record are one transaction: all happen or none.
 */
@Injectable()
export class ConsoleKeys {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly confirmations: PasskeyConfirmations,
    private readonly audit: AuditLog,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list({ applicationId }: ScopedApplication): Promise<KeyView[]> {
    return (await this.keys.list(applicationId)).map((key) => this.view(key));
  }

  async create(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    body: NewKeyBody,
    confirmation: string | undefined,
  ): Promise<IssuedKeyView> {
    const name = body.name.trim();
    const { scopes } = body;
    const { apiKey, plaintext } = await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'key.create',
        { applicationId },
        confirmation,
        manager,
      );
      const issued = await this.keys.create(applicationId, name, scopes, manager);
      await this.record(manager, actor, applicationId, 'key.create', issued.apiKey, {
        name,
        scopes: issued.apiKey.scopes,
      });
      return issued;
    });
    return { key: this.view(apiKey), plaintext };
  }

  /** The old key keeps working for the grace period (KEY_GRACE_PERIOD_SECONDS, 24 h). */
  async rotate(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawKeyId: string,
    confirmation: string | undefined,
  ): Promise<RotatedKeyView> {
    const old = await this.find(applicationId, rawKeyId);
    // Refused before the confirmation is spent; rotate() checks again under its row lock.
    if (this.keys.statusOf(old) !== 'active' || old.replacedById !== null) throw keyNotRotatable();
    return this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'key.rotate',
        { applicationId, keyId: old.id },
        confirmation,
        manager,
      );
      const { apiKey, plaintext } = await this.keys.rotate(old.id, manager);
      const previous = await this.find(applicationId, String(old.id), manager);
      await this.record(manager, actor, applicationId, 'key.rotate', old, {
        newKeyId: apiKey.id,
        graceUntil: previous.expiresAt?.toISOString() ?? null,
      });
      return { key: this.view(apiKey), plaintext, previous: this.view(previous) };
    });
  }

  async revoke(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawKeyId: string,
    confirmation: string | undefined,
  ): Promise<KeyView> {
    const key = await this.find(applicationId, rawKeyId);
    const revoked = await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'key.revoke',
        { applicationId, keyId: key.id },
        confirmation,
        manager,
      );
      const changed = await this.keys.revoke(key.id, manager);
      await this.record(manager, actor, applicationId, 'key.revoke', key, { name: key.name });
      return changed;
    });
    return this.view(revoked);
  }

  async delete(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawKeyId: string,
    confirmation: string | undefined,
  ): Promise<void> {
    const key = await this.find(applicationId, rawKeyId);
    await this.dataSource.transaction(async (manager) => {
      await this.confirmations.consume(
        actor.user.id,
        'key.delete',
        { applicationId, keyId: key.id },
        confirmation,
        manager,
      );
      await this.keys.delete(key.id, manager);
      await this.record(manager, actor, applicationId, 'key.delete', key, { name: key.name });
    });
  }

  /** The application's key with this id; unknown, malformed or another application's → 404. */
  private async find(
    applicationId: number,
    rawKeyId: string,
    manager?: EntityManager,
  ): Promise<ApiKey> {
    const keyId = pathId(rawKeyId);
    const key = (await this.keys.list(applicationId, manager)).find(
      (candidate) => candidate.id === keyId,
    );
    if (!key) throw keyNotFound();
    return key;
  }

  private view(key: ApiKey): KeyView {
    return toKeyView(key, this.keys.statusOf(key));
  }

  /** In the change's transaction: the change and its record commit together. */
  private record(
    manager: EntityManager,
    actor: ConsoleActor,
    applicationId: number,
    action: string,
    key: ApiKey,
    details: Record<string, string | number | string[] | null>,
  ): Promise<void> {
    return this.audit.record(
      {
        applicationId,
        actorUserId: actor.user.id,
        action,
        target: `key:${key.id}`,
        details: { prefix: key.keyPrefix, ...details },
        ip: actor.ip,
      },
      manager,
    );
  }
}

/** A path's numeric key id, or null when it cannot name a row: the caller answers 404. */
function pathId(raw: string): number | null {
  return positiveIntId(raw);
}
