import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Application } from '../applications/application.entity';

/**
 * Where an application's events are pushed (docs/webhooks.md), and how far delivery has got:
 * `cursor` is the id of the last event of the application's stream that this endpoint has
 * received or skipped (by type); delivery resumes after it in commit order.
 */
@Entity({ name: 'webhook_endpoints' })
@Index('idx_webhook_endpoints_application_id', ['applicationId'])
export class WebhookEndpoint {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'pk_webhook_endpoints' })
  id!: number;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'application_id',
    foreignKeyConstraintName: 'fk_webhook_endpoints_application',
  })
  application?: Application;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  description!: string;

  /** The event types sent; empty means every type. */
  @Column({ name: 'event_types', type: 'text', array: true, default: () => "'{}'" })
  eventTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Why delivery stopped on its own (410 Gone, 24 h of failures); null when enabled by hand. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  /** The signing secret, sealed (webhook-secret.ts); shown in clear once, at creation. */
  @Column({ type: 'text' })
  secret!: string;

  /** The secret before a rotation, sealed like `secret`, still signing until previous_secret_until. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_until', type: 'timestamptz', nullable: true })
  previousSecretUntil!: Date | null;

  /** Events with an id up to this one are delivered (or not of a subscribed type). */
  @Column({ type: 'bigint', default: 0 })
  cursor!: string;

  /** The first failure of the current run of failures; null after a success. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  /** No attempt before this time (the backoff after a failure); null: at once. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** Failed attempts in a row for the event at the head. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /**
   * Bumped by every owner's change that bears on delivery (enable, disable, event types, URL,
   * secret rotation, replay): a delivery claimed before the bump cannot move the cursor or record
   * a failure afterwards (its writes are guarded by the generation it claimed).
   */
  @Column({ type: 'integer', default: 0 })
  generation!: number;

  /** The instance delivering to this endpoint now, until lease_until. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
