import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';

type Cbor = Parameters<typeof isoCBOR.encode>[0];

/**
 * A software WebAuthn authenticator (an ES256 key pair per credential, made with node:crypto)
 * and the browser around it, so API tests register passkeys and sign assertions without a
 * browser. It produces what navigator.credentials.create()/get() answer, in the JSON form
 * @simplewebauthn/browser sends: real "none" attestation (W3C WebAuthn Level 3, sections
 * 6.1 authenticator data, 6.5.4 attested credential data, 8.7 "none") and real assertions.
 * Options produce the failures the server must refuse.
 */

// Authenticator data flags (WebAuthn section 6.1).
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;
// COSE (RFC 9053): kty EC2, alg ES256, crv P-256; key labels 1 kty, 3 alg, -1 crv, -2 x, -3 y.
const COSE_EC2 = 2;
const COSE_ES256 = -7;
const COSE_P256 = 1;

/** A credential held by the authenticator. */
export interface SoftwareCredential {
  id: Buffer;
  rpId: string;
  privateKey: KeyObject;
  /** base64url user handle (options.user.id) for a resident/discoverable credential, else null. */
  userHandle: string | null;
  signCount: number;
}

export interface AuthenticatorSettings {
  /** The origin the "browser" puts in clientDataJSON (the page's origin). */
  origin: string;
  /** Keep credentials discoverable (resident), returning the user handle. Default true. */
  resident?: boolean;
  /** Add this much to the signature counter per assertion; 0 for a counter-less (synced) one. Default 1. */
  counterStep?: number;
}

/** Per-call deviations from a well-behaved authenticator and browser. */
export interface CeremonyOverrides {
  /** false: the user was present but not verified (flag UV clear). */
  userVerified?: boolean;
  /** The origin written in clientDataJSON (a phishing page's, say). */
  origin?: string;
  /** The RP id whose hash goes in authenticator data. */
  rpId?: string;
  /** Assertion: the counter to report instead of the next one (a stale or replayed counter). */
  signCount?: number;
  /** Assertion: signed with a key that is not the credential's (a forged assertion). */
  forgeSignature?: boolean;
  /** Assertion: use this credential (base64url id) instead of the first one that fits. */
  credentialId?: string;
  /** Assertion: leave the user handle out even for a resident credential. */
  omitUserHandle?: boolean;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
}

/** The credential public key as a COSE_Key (RFC 9052 section 7), CBOR-encoded. */
function coseKey(privateKey: KeyObject): Uint8Array {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, Cbor>([
      [1, COSE_EC2],
      [3, COSE_ES256],
      [-1, COSE_P256],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  private readonly origin: string;
  private readonly resident: boolean;
  private readonly counterStep: number;

  constructor(settings: AuthenticatorSettings) {
    this.origin = settings.origin;
    this.resident = settings.resident ?? true;
    this.counterStep = settings.counterStep ?? 1;
  }

  /** navigator.credentials.create({publicKey: options}) with attestation "none". */
  createCredential(
    options: PublicKeyCredentialCreationOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): RegistrationResponseJSON {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    if (!options.pubKeyCredParams.some((param) => param.alg === COSE_ES256)) {
      throw new Error('NotSupportedError: the relying party does not accept ES256');
    }
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(b64url(c.id)))) {
      throw new Error('InvalidStateError: this authenticator already holds an excluded credential');
    }
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: SoftwareCredential = {
      id: randomBytes(16),
      rpId,
      privateKey,
      userHandle: this.resident ? options.user.id : null,
      signCount: 0,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(overrides) | AT]),
      uint32(credential.signCount),
      Buffer.alloc(16), // AAGUID: none (all zero) for "none" attestation
      idLength,
      credential.id,
      coseKey(privateKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, Cbor>()],
        ['authData', authData],
      ]),
    );
    this.credentials.push(credential);
    const id = b64url(credential.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(
          clientData('webauthn.create', options.challenge, overrides.origin ?? this.origin),
        ),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get({publicKey: options}): the first credential of this RP in
   * allowCredentials, or with allowCredentials empty the first discoverable one.
   */
  getAssertion(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): AuthenticationResponseJSON {
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const credential = this.pick(options, overrides.credentialId);
    credential.signCount += this.counterStep;
    const signCount = overrides.signCount ?? credential.signCount;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(overrides)]),
      uint32(signCount),
    ]);
    const clientDataJSON = clientData(
      'webauthn.get',
      options.challenge,
      overrides.origin ?? this.origin,
    );
    const key = overrides.forgeSignature
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
      : credential.privateKey;
    // ES256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded (section 6.3.3).
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key);
    const id = b64url(credential.id);
    const userHandle =
      credential.userHandle !== null && !overrides.omitUserHandle
        ? credential.userHandle
        : undefined;
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private pick(
    options: PublicKeyCredentialRequestOptionsJSON,
    credentialId: string | undefined,
  ): SoftwareCredential {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    const found = this.credentials.find(
      (c) =>
        c.rpId === rpId &&
        (credentialId === undefined || b64url(c.id) === credentialId) &&
        (allowed.length > 0 ? allowed.includes(b64url(c.id)) : c.userHandle !== null),
    );
    if (!found) throw new Error('NotAllowedError: no credential of this authenticator fits');
    return found;
  }

  private flags(overrides: CeremonyOverrides): number {
    return overrides.userVerified === false ? UP : UP | UV;
  }
}
