import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** An end user. The id is a bigint, carried as decimal text (docs/contract/README.md#identifiers). */
@Entity({ name: 'users' })
// Unique regardless of case: unique indexes on lower(username) and lower(email), which TypeORM
// cannot declare (hand-written in migration CaseInsensitiveUserNames).
@Index('uq_users_lower_username', { synchronize: false })
@Index('uq_users_lower_email', { synchronize: false })
export class User {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_users' })
  id!: string;

  /** As typed at creation; unique case-insensitively. */
  @Column({ type: 'varchar', length: 64 })
  username!: string;

  /** Primary email, lower-cased. */
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  nickname!: string;

  @Column({ type: 'text', default: '' })
  avatar!: string;

  @Column({ name: 'email_verified', type: 'boolean', default: false })
  emailVerified!: boolean;

  /** scrypt hash (see password.ts); null for users who only sign in through an upstream provider. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
