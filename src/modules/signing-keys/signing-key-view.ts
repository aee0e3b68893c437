import type { IdTokenSigningAlg } from '../../common/crypto/signing-algs';
import type { SigningKey, SigningKeyState } from './signing-key.entity';

/** A signing key as `list()` and the CLI show it: never private material. */
export interface SigningKeyView {
  kid: string;
  alg: IdTokenSigningAlg;
  state: SigningKeyState;
  createdAt: Date;
  activatedAt: Date | null;
  retiredAt: Date | null;
  /** null while next or active (published for as long as it is); retired: removed after this. */
  publishedUntil: Date | null;
}

export function toSigningKeyView(key: SigningKey): SigningKeyView {
  return {
    kid: key.kid,
    alg: key.alg,
    state: key.state,
    createdAt: key.createdAt,
    activatedAt: key.activatedAt,
    retiredAt: key.retiredAt,
    publishedUntil: key.publishedUntil,
  };
}

/** RFC 7517 section 5: next and active keys, and retired ones until their tokens have expired. */
export function isPublished(key: SigningKey, now: Date): boolean {
  return key.state !== 'retired' || (key.publishedUntil !== null && key.publishedUntil > now);
}
