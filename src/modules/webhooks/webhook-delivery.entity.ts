import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export const WEBHOOK_DELIVERY_KINDS = ['delivery', 'resend', 'test'] as const;
export type WebhookDeliveryKind = (typeof WEBHOOK_DELIVERY_KINDS)[number];

/**
 * One delivery attempt (docs/webhooks.md, "Delivery log"): kept for the last
 * DELIVERY_LOG_SIZE attempts of each endpoint, older ones are deleted as new ones arrive.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('idx_webhook_deliveries_endpoint_id_id', ['endpointId', 'id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_webhook_deliveries' })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'integer' })
  endpointId!: number;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'endpoint_id',
    foreignKeyConstraintName: 'fk_webhook_deliveries_endpoint',
  })
  endpoint?: WebhookEndpoint;

  /**
   * The event sent; null for a test event. No foreign key: the log is a plain record of attempts
   * and is never joined.
   */
  @Column({ name: 'event_id', type: 'bigint', nullable: true })
  eventId!: string | null;

  /** A delivery round's attempt, an event resent by hand, or a test event. */
  @Column({ type: 'varchar', length: 16, default: 'delivery' })
  kind!: WebhookDeliveryKind;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt!: Date;

  /** The receiver's HTTP status; null when no response arrived (refused, timeout). */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs!: number;

  /** Why the attempt failed, truncated; null on success. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  /** When the next attempt is due after a failure; null on success or when disabled. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;
}
