import { ApiProperty } from '@nestjs/swagger';
import type { AuditLogEntry } from '../../audit/audit-log.entity';

export class AuditActorView {
  @ApiProperty() id!: string;
  @ApiProperty() username!: string;
}

export class AuditEntryView {
  @ApiProperty({ description: 'Decimal text; entries are numbered in the order written' })
  id!: string;
  @ApiProperty({ example: 'key.rotate' }) action!: string;
  @ApiProperty({ example: 'key:12' }) target!: string;
  @ApiProperty({
    type: AuditActorView,
    nullable: true,
    description: 'null once the account was deleted',
  })
  actor!: AuditActorView | null;
  @ApiProperty({ description: 'The client address of the request' }) ip!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Never a secret' })
  details!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AuditPageView {
  @ApiProperty({ type: [AuditEntryView], description: 'Newest first' })
  entries!: AuditEntryView[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `before` for the next (older) page; null at the end',
  })
  next!: string | null;
}

export function toAuditEntryView(entry: AuditLogEntry): AuditEntryView {
  return {
    id: entry.id,
    action: entry.action,
    target: entry.target,
    actor: entry.actor ? { id: entry.actor.id, username: entry.actor.username } : null,
    ip: entry.ip,
    details: entry.details,
    createdAt: entry.createdAt.toISOString(),
  };
}
