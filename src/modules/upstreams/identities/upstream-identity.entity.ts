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
import { User } from '../../users/user.entity';

/** What the provider told us at the last sign-in, minus anything secret. */
export interface UpstreamProfileSnapshot {
  username: string | null;
  email: string | null;
  emailVerified: boolean;
  avatar: string | null;
  /** Non-secret provider fields (e.g. WeChat's unionid), returned in userinfo `provider_data`. */
  providerData: Record<string, unknown>;
}

/**
 * An account at an upstream identity provider bound to one user: (provider id, subject) → user.
 * No foreign key to upstream_providers: removing a provider's configuration must not silently
 * delete who was bound to it (re-adding the provider with the same id restores the bindings).
 */
@Entity({ name: 'upstream_identities' })
@Index('uq_upstream_identities_provider_subject', ['providerId', 'subject'], { unique: true })
export class UpstreamIdentity {
  /** An integer: userinfo's `upstreams[].id` is an integer in the original service. */
  @PrimaryGeneratedColumn('identity', {
    type: 'integer',
    primaryKeyConstraintName: 'pk_upstream_identities',
  })
  id!: number;

  /** The configured provider's id (the value clients put in upstream_providers). */
  @Column({ name: 'provider_id', type: 'varchar', length: 64 })
  providerId!: string;

  /** The provider's stable user id (OIDC `sub`, GitHub's numeric id, WeChat's openid, ...). */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Index('idx_upstream_identities_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_upstream_identities_user' })
  user?: User;

  @Column({ type: 'jsonb' })
  profile!: UpstreamProfileSnapshot;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
