import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Application } from '../../applications/application.entity';
import { User } from '../../users/user.entity';

/** The console roles a member can be given; the owner is `applications.owner_id`, never a row. */
export const MEMBER_ROLES = ['admin', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const isMemberRole = (value: unknown): value is MemberRole =>
  (MEMBER_ROLES as readonly unknown[]).includes(value);

/**
 * A console role in one application, granted in the console with a passkey confirmation
 * (docs/console.md, "Roles"). Apart from `app_users` on purpose: a user's group there is the
 * application's own data, which its API keys may change; this table no API key reaches.
 */
@Entity({ name: 'console_members' })
@Check('chk_console_members_role', `"role" IN ('admin', 'viewer')`)
export class ConsoleMember {
  @PrimaryColumn({
    name: 'application_id',
    type: 'integer',
    primaryKeyConstraintName: 'pk_console_members',
  })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'application_id',
    foreignKeyConstraintName: 'fk_console_members_application',
  })
  application?: Application;

  /** The roles of one user across applications: the console's application list. */
  @Index('idx_console_members_user_id')
  @PrimaryColumn({
    name: 'user_id',
    type: 'bigint',
    primaryKeyConstraintName: 'pk_console_members',
  })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_console_members_user' })
  user?: User;

  @Column({ type: 'varchar', length: 16 })
  role!: MemberRole;

  /** Who granted the current role; null for roles carried over from groups, or once deleted. */
  @Column({ name: 'granted_by', type: 'bigint', nullable: true })
  grantedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'granted_by', foreignKeyConstraintName: 'fk_console_members_granted_by' })
  grantor?: User | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** When the role was last granted or changed. */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
