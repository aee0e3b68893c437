import { ApiProperty } from '@nestjs/swagger';
import { rfc3339 } from '../../../common/http/timestamps';
import type { ApiKey } from '../../keys/api-key.entity';
import type { ApiKeyStatus } from '../../keys/api-keys.service';
import { API_SCOPES } from '../../keys/scopes';

/** A key's state as the console shows it: a rotated key is in its grace period until it ends. */
export const CONSOLE_KEY_STATUSES = ['active', 'grace_period', 'revoked', 'expired'] as const;
export type ConsoleKeyStatus = (typeof CONSOLE_KEY_STATUSES)[number];

const TIMESTAMP = { type: String, format: 'date-time', nullable: true } as const;

/** A key in the console's API-access tab; never the plaintext or its hash. */
export class KeyView {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The first 12 characters of the key, to recognise it' })
  prefix!: string;
  @ApiProperty({ enum: API_SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty({
    enum: CONSOLE_KEY_STATUSES,
    description:
      'grace_period: rotated, still accepted until graceUntil; expired: past that (or its own expiry); revoked: refused at once',
  })
  status!: ConsoleKeyStatus;
  @ApiProperty({ ...TIMESTAMP, description: 'grace_period only: when the key stops working' })
  graceUntil!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The key that replaced it on rotation',
  })
  replacedById!: number | null;
  @ApiProperty(TIMESTAMP) lastUsedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty(TIMESTAMP) revokedAt!: string | null;
}

export class IssuedKeyView {
  @ApiProperty({ type: KeyView }) key!: KeyView;
  @ApiProperty({ description: 'The key itself, shown this once; it cannot be shown again' })
  plaintext!: string;
}

export class RotatedKeyView extends IssuedKeyView {
  @ApiProperty({ type: KeyView, description: 'The rotated key, now in its grace period' })
  previous!: KeyView;
}

export function toKeyView(key: ApiKey, status: ApiKeyStatus): KeyView {
  const inGrace = status === 'active' && key.replacedById !== null && key.expiresAt !== null;
  return {
    id: key.id,
    name: key.name,
    prefix: key.keyPrefix,
    scopes: [...key.scopes],
    status: inGrace ? 'grace_period' : status,
    graceUntil: inGrace ? rfc3339(key.expiresAt) : null,
    replacedById: key.replacedById,
    lastUsedAt: rfc3339(key.lastUsedAt),
    createdAt: key.createdAt.toISOString(),
    revokedAt: rfc3339(key.revokedAt),
  };
}
