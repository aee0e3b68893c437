import { ApiProperty } from '@nestjs/swagger';
import type { PasskeyCredential } from './passkey-credential.entity';

/** A passkey as the account page lists it (never its key material). */
export class PasskeyView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ maxLength: 64 }) name!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastUsedAt!: string | null;
  @ApiProperty({ description: 'Synced to a passkey provider (WebAuthn backup state)' })
  backedUp!: boolean;
  @ApiProperty({ type: [String], example: ['internal', 'hybrid'] }) transports!: string[];
}

export function toPasskeyView(credential: PasskeyCredential): PasskeyView {
  return {
    id: credential.id,
    name: credential.name,
    createdAt: credential.createdAt.toISOString(),
    lastUsedAt: credential.lastUsedAt?.toISOString() ?? null,
    backedUp: credential.backedUp,
    transports: credential.transports,
  };
}

/**
 * WebAuthn options for navigator.credentials.create() or .get(), in the JSON form of
 * @simplewebauthn/browser (binary fields base64url).
 */
export class WebAuthnOptions {
  @ApiProperty({ description: 'base64url' }) challenge!: string;
  @ApiProperty({ required: false }) rpId?: string;
  @ApiProperty({ required: false }) timeout?: number;
  @ApiProperty({ required: false, enum: ['required'] }) userVerification?: string;
}

/** Answer of the routes that start a registration or a passkey sign-in. */
export class PasskeyCeremonyStart {
  @ApiProperty({ format: 'uuid', description: 'Send back with the browser response' })
  ceremonyId!: string;
  @ApiProperty({
    type: WebAuthnOptions,
    description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON',
  })
  options!: object;
}
