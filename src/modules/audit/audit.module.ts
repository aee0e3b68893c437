import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogEntry } from './audit-log.entity';
import { AuditLog } from './audit-log.service';

/** The audit log of console changes (table audit_log). */
@Module({
  imports: [TypeOrmModule.forFeature([AuditLogEntry])],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
