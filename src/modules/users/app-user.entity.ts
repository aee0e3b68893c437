import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Application } from '../applications/application.entity';
import { User } from './user.entity';

/** The user–application relation: one row per application and user (docs/contract/users.md#states-of-a-user-in-an-application). */
@Entity({ name: 'app_users' })
@Index('uq_app_users_application_user', ['applicationId', 'userId'], { unique: true })
// GET /users filters with INCLUDE columns (hand-written in migration UserQueryIndexes).
@Index('idx_app_users_app_group_user', { synchronize: false })
@Index('idx_app_users_app_enabled_user', { synchronize: false })
// GET /users keyword: GIN (application_id, search gin_trgm_ops) (migration AppUserSearch).
@Index('idx_app_users_app_search_trgm', { synchronize: false })
export class AppUser {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_app_users' })
  id!: string;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'fk_app_users_application' })
  application?: Application;

  @Index('idx_app_users_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_app_users_user' })
  user?: User;

  @Column({ type: 'varchar', length: 16, default: 't0' })
  group!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /**
   * Scopes the user has consented to for this application (space-separated); null when the
   * user never consented or the authorization was revoked (POST /users/:id/revoke), so the
   * next authorization is interactive again (docs/contract/users.md#post-usersuseridrevoke).
   */
  @Column({ name: 'granted_scope', type: 'text', nullable: true })
  grantedScope!: string | null;

  @Column({ name: 'auth_count', type: 'integer', default: 0 })
  authCount!: number;

  @Column({ name: 'first_auth_at', type: 'timestamptz', nullable: true })
  firstAuthAt!: Date | null;

  @Column({ name: 'last_auth_at', type: 'timestamptz', nullable: true })
  lastAuthAt!: Date | null;

  /**
   * `lower(username) || E'\n' || lower(email)` of the user, for GET /users?keyword= within one
   * application. Written only by database triggers (migration AppUserSearch), never by the app.
   */
  @Column({ type: 'text', select: false, insert: false, update: false })
  search!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
