import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import type { AuthorizationRequest } from './authorization-request';
import { newOpaqueToken } from './opaque-token';
import { sha256Hex } from '../keys/key-format';
import { PendingAuthorization } from './pending-authorization.entity';

/** How long a user has to sign in and consent before the request must be started again. */
export const PENDING_TTL_SECONDS = 600;

export interface Pending {
  id: string;
  request: AuthorizationRequest;
}

/** Validated authorization requests parked server-side while the user signs in or consents. */
@Injectable()
export class PendingAuthorizationsService {
  constructor(
    @InjectRepository(PendingAuthorization)
    private readonly pending: Repository<PendingAuthorization>,
    private readonly clock: Clock,
  ) {}

  async create(request: AuthorizationRequest): Promise<string> {
    const id = newOpaqueToken();
    const now = this.clock.now();
    await this.pending.insert({
      id: sha256Hex(id),
      applicationId: request.applicationId,
      request,
      expiresAt: new Date(now.getTime() + PENDING_TTL_SECONDS * 1000),
      createdAt: now,
    });
    return id;
  }

  async find(id: unknown): Promise<Pending | null> {
    if (typeof id !== 'string' || id === '' || id.length > 100) return null;
    const row = await this.pending.findOneBy({
      id: sha256Hex(id),
      expiresAt: MoreThan(this.clock.now()),
    });
    return row ? { id, request: row.request } : null;
  }

  /**
   * Removes the request once it is answered, so a form cannot be replayed; false when another
   * submission already took it (only the one that deletes the row may go on).
   */
  async take(id: string): Promise<boolean> {
    const result = await this.pending.delete({ id: sha256Hex(id) });
    return (result.affected ?? 0) > 0;
  }
}
