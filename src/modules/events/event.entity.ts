import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Application } from '../applications/application.entity';

/** An authorization event of an application (docs/contract/events.md). */
@Entity({ name: 'events' })
@Index('idx_events_application_created_id', ['applicationId', 'createdAt', 'id'])
@Index('idx_events_app_type_created_id', ['applicationId', 'eventType', 'createdAt', 'id'])
@Index('idx_events_application_id', ['applicationId', 'id'])
export class AuthEvent {
  /**
   * Drawn from events_id_seq by the trigger trg_events_assign_id, never by the caller: the
   * trigger first takes the application's event-writer lock (migration EventCommitOrder,
   * docs/events.md), which is what makes GET /events?after safe.
   */
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_events' })
  id!: string;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'fk_events_application' })
  application?: Application;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType!: string;

  @Column({ type: 'varchar', length: 16, default: 'oauth2' })
  protocol!: string;

  @Column({ type: 'varchar', length: 16, default: 'success' })
  status!: string;

  /** Kept as plain data (no foreign key): an event outlives the user it mentions. */
  @Column({ name: 'user_id', type: 'bigint', nullable: true })
  userId!: string | null;

  @Column({ type: 'text', default: '' })
  scope!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /**
   * Stored at millisecond precision (the trigger cuts it), the precision the API shows. The
   * partition key (one partition per UTC month, migration PartitionedEvents), so part of the
   * primary key; ids alone are unique by construction (one sequence, drawn by the trigger).
   */
  @CreateDateColumn({
    name: 'created_at',
    type: 'timestamptz',
    primary: true,
    primaryKeyConstraintName: 'pk_events',
  })
  createdAt!: Date;
}
