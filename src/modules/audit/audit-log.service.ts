import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { AuditLogEntry, type AuditDetails } from './audit-log.entity';

/** What AuditLog.record writes. */
export interface AuditRecord {
  applicationId: number | null;
  /** Null for a change made with the admin CLI (then `details.via` is `cli`). */
  actorUserId: string | null;
  action: string;
  target: string;
  details?: AuditDetails;
  ip: string;
}

export interface AuditPageQuery {
  /** Entries with a smaller id than this (the previous page's `next`). */
  before?: string;
  limit: number;
}

export interface AuditPage {
  entries: AuditLogEntry[];
  /** The `before` of the next (older) page, or null at the end. */
  next: string | null;
}

/** The console's audit log (owner of table audit_log): every write goes through `record`. */
@Injectable()
export class AuditLog {
  constructor(
    @InjectRepository(AuditLogEntry) private readonly entries: Repository<AuditLogEntry>,
    private readonly clock: Clock,
  ) {}

  /**
   * Records one change. Pass the transaction's manager when the change has one, so the record
   * and the change commit together.
   */
  async record(entry: AuditRecord, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(AuditLogEntry) : this.entries;
    await repo.insert({
      applicationId: entry.applicationId,
      actorUserId: entry.actorUserId,
      action: entry.action,
      target: entry.target,
      details: entry.details ?? {},
      ip: entry.ip.slice(0, 64),
      createdAt: this.clock.now(),
    });
  }

  /** One application's entries, newest first, with their actors. */
  async page(applicationId: number, query: AuditPageQuery): Promise<AuditPage> {
    const qb = this.entries
      .createQueryBuilder('e')
      .leftJoinAndSelect('e.actor', 'actor')
      .where('e.application_id = :applicationId', { applicationId })
      .orderBy('e.id', 'DESC')
      // A many-to-one join does not multiply rows, so a plain LIMIT pages correctly.
      .limit(query.limit + 1);
    if (query.before !== undefined) qb.andWhere('e.id < :before', { before: query.before });
    const rows = await qb.getMany();
    const entries = rows.slice(0, query.limit);
    const next = rows.length > query.limit ? entries[entries.length - 1].id : null;
    return { entries, next };
  }
}
