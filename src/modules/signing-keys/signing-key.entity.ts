import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { IdTokenSigningAlg } from '../../common/crypto/signing-algs';

/**
 * Per algorithm: `next`: published in the JWKS, never signs. `active`: signs (exactly one).
 * `retired`: signs no more, published until `published_until`, then deleted by the purge
 * (docs/oidc.md).
 */
export const SIGNING_KEY_STATES = ['next', 'active', 'retired'] as const;
export type SigningKeyState = (typeof SIGNING_KEY_STATES)[number];

/**
 * RFC 7517 section 4 members of a published key: an RSA key's `n e` (RFC 7518 section 6.3.1), an
 * EC key's `crv x y` (section 6.2.1), an OKP key's `crv x` (RFC 8037 section 2). A type, not an
 * interface, so that it is also a `Record<string, unknown>` (the JWKS callers' type).
 */
export type PublicJwk = {
  kty: 'RSA' | 'EC' | 'OKP';
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
  kid: string;
  alg: IdTokenSigningAlg;
  use: 'sig';
};

/** One key pair of the OpenID Connect provider for one alg (docs/oidc.md, "Signing keys"). */
@Entity({ name: 'signing_keys' })
@Check('chk_signing_keys_state', `"state" IN ('next', 'active', 'retired')`)
@Check('chk_signing_keys_alg', `"alg" IN ('RS256', 'PS256', 'ES256', 'EdDSA')`)
// At most one active and one next key per alg, whatever the instances do (the lock is the first guard).
@Index('uq_signing_keys_active', ['alg'], { unique: true, where: `"state" = 'active'` })
@Index('uq_signing_keys_next', ['alg'], { unique: true, where: `"state" = 'next'` })
export class SigningKey {
  @PrimaryGeneratedColumn({ type: 'integer', primaryKeyConstraintName: 'pk_signing_keys' })
  id!: number;

  /** RFC 7638 JWK thumbprint (SHA-256) of the public key. */
  @Index('uq_signing_keys_kid', { unique: true })
  @Column({ type: 'text' })
  kid!: string;

  /** The JWS alg this key signs with, and only this one (keys made before the others: RS256). */
  @Column({ type: 'varchar', length: 16, default: 'RS256' })
  alg!: IdTokenSigningAlg;

  /** The public JWK as published (public members, kid, alg, use); never a private member. */
  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: PublicJwk;

  /** AES-256-GCM ciphertext of the PKCS#8 private key (key-material.ts); never the plaintext. */
  @Column({ name: 'private_key_sealed', type: 'text' })
  privateKeySealed!: string;

  @Column({ type: 'varchar', length: 8 })
  state!: SigningKeyState;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt!: Date | null;

  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;

  /** Retired keys only: retired_at + the retention; past it the key is unpublished and purged. */
  @Column({ name: 'published_until', type: 'timestamptz', nullable: true })
  publishedUntil!: Date | null;
}
