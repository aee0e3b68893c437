import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { SecurityProfile } from './security-profile';
import type { IdTokenSigningAlg } from '../../common/crypto/signing-algs';
import type { ClientJwks } from './client-jwks';

/**
 * How a client authenticates (docs/oauth.md, "Client authentication"): `secret` (client_secret_basic
 * or client_secret_post), `none` (a public client: client_id and PKCE) or `private_key_jwt` (a JWT
 * signed with one of its registered keys, RFC 7523 section 2.2).
 */
export const CLIENT_AUTH_METHODS = ['secret', 'none', 'private_key_jwt'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** A registered application: the tenant of the application API and an OAuth client (docs/contract/me.md#app). */
@Entity({ name: 'applications' })
@Check(
  'chk_applications_client_auth_method',
  `"client_auth_method" IN ('secret', 'none', 'private_key_jwt')`,
)
@Check('chk_applications_security_profile', `"security_profile" IN ('fapi2')`)
@Check(
  'chk_applications_id_token_signed_response_alg',
  `"id_token_signed_response_alg" IN ('RS256', 'PS256', 'ES256', 'EdDSA')`,
)
export class Application {
  @PrimaryGeneratedColumn({ type: 'integer', primaryKeyConstraintName: 'pk_applications' })
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ name: 'home_url', type: 'text', default: '' })
  homeUrl!: string;

  @Column({ type: 'text', default: '' })
  logo!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'is_public', type: 'boolean', default: false })
  isPublic!: boolean;

  /** The console account that owns the application (null for apps bootstrapped with the CLI). */
  @Column({ name: 'owner_id', type: 'bigint', nullable: true })
  ownerId!: string | null;

  @Index('uq_applications_client_id', { unique: true })
  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  /** SHA-256 (hex) of the client secret; null for `none` clients. */
  @Column({ name: 'client_secret_hash', type: 'varchar', length: 64, nullable: true })
  clientSecretHash!: string | null;

  @Column({ name: 'client_auth_method', type: 'varchar', length: 16, default: 'secret' })
  clientAuthMethod!: ClientAuthMethod;

  /**
   * The public keys of a `private_key_jwt` client, registered inline (client-jwks.ts); null
   * otherwise, or when the keys are fetched from jwksUri.
   */
  @Column({ type: 'jsonb', nullable: true })
  jwks!: ClientJwks | null;

  /** Where a `private_key_jwt` client publishes its keys (https); null otherwise. */
  @Column({ name: 'jwks_uri', type: 'text', nullable: true })
  jwksUri!: string | null;

  /** Registered redirect URIs, matched by exact string comparison (RFC 9700 section 4.1.3). */
  @Column({ name: 'redirect_uris', type: 'text', array: true, default: () => "'{}'" })
  redirectUris!: string[];

  /**
   * Where the end-session endpoint may send the browser after logout, matched exactly
   * (OpenID Connect RP-Initiated Logout 1.0 section 3); same registration rule as redirectUris.
   */
  @Column({
    name: 'post_logout_redirect_uris',
    type: 'text',
    array: true,
    default: () => "'{}'",
  })
  postLogoutRedirectUris!: string[];

  /** Requests per minute of the application API; null = the service default (docs/contract/README.md#rate-limits). */
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true })
  rateLimitPerMinute!: number | null;

  /** Maximum number of users that may authorize the application; null = unlimited. */
  @Column({ name: 'user_quota', type: 'integer', nullable: true })
  userQuota!: number | null;

  /** When true, users with an unverified email cannot authorize (interaction_required). */
  @Column({ name: 'require_verified_email', type: 'boolean', default: false })
  requireVerifiedEmail!: boolean;

  /**
   * Whether the login page offers "Create an account" (docs/accounts.md), when the deployment
   * allows sign-up at all (SIGNUP_ENABLED). Off until the owner turns it on.
   */
  @Column({ name: 'sign_up_enabled', type: 'boolean', default: false })
  signUpEnabled!: boolean;

  /**
   * Upstream provider ids a user must have bound (one of them) to authorize (docs/upstreams.md);
   * empty: none required. Missing with prompt=none is interaction_required.
   */
  @Column({ name: 'required_upstreams', type: 'text', array: true, default: () => "'{}'" })
  requiredUpstreams!: string[];

  /**
   * Whether this client must push its authorization requests (RFC 9126 section 5, the client
   * metadata `require_pushed_authorization_requests`): /authorize without a request_uri is then
   * answered invalid_request. REQUIRE_PUSHED_AUTHORIZATION_REQUESTS requires it of every client.
   */
  @Column({ name: 'require_pushed_authorization_requests', type: 'boolean', default: false })
  requirePushedAuthorizationRequests!: boolean;

  /**
   * Whether this client must send a DPoP proof with every token request (RFC 9449 section 5.2,
   * the client metadata `dpop_bound_access_tokens`): a token request without one is then answered
   * invalid_request, so its tokens are always bound to its key.
   */
  @Column({ name: 'dpop_bound_access_tokens', type: 'boolean', default: false })
  dpopBoundAccessTokens!: boolean;

  /**
   * Whether this client is registered for the device authorization grant (RFC 8628; docs/oauth.md,
   * "Device authorization grant"): off by default, refused to a `fapi2` client.
   */
  @Column({ name: 'device_code_grant', type: 'boolean', default: false })
  deviceCodeGrant!: boolean;

  /**
   * The security profile this client runs under (security-profile.ts), or null for none. `fapi2`:
   * the FAPI 2.0 Security Profile (docs/oidc.md): pushed requests, PKCE, private_key_jwt and DPoP
   * required, codes of at most 60 s, ID tokens PS256, ES256 or EdDSA.
   */
  @Column({ name: 'security_profile', type: 'varchar', length: 16, nullable: true })
  securityProfile!: SecurityProfile | null;

  /**
   * The JWS alg of this client's id_tokens (OIDC Dynamic Client Registration 1.0 section 2,
   * `id_token_signed_response_alg`): one of ID_TOKEN_SIGNING_ALGS; null is the default, RS256
   * (docs/oidc.md, "Signing keys").
   */
  @Column({ name: 'id_token_signed_response_alg', type: 'varchar', length: 16, nullable: true })
  idTokenSignedResponseAlg!: IdTokenSigningAlg | null;

  /**
   * Where logout tokens go when a session in which this client got an id_token ends (OpenID
   * Connect Back-Channel Logout 1.0, `backchannel_logout_uri`): https under the webhook URL rules
   * (common/http/webhook-url.ts), or null for none (docs/oidc.md, "Back-channel logout").
   */
  @Column({ name: 'backchannel_logout_uri', type: 'text', nullable: true })
  backchannelLogoutUri!: string | null;

  /**
   * `backchannel_logout_session_required`: the client needs `sid` in its logout tokens. Recorded
   * for the client's sake only: every logout token carries `sid`.
   */
  @Column({ name: 'backchannel_logout_session_required', type: 'boolean', default: false })
  backchannelLogoutSessionRequired!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
