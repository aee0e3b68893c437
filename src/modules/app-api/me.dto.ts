import { ApiProperty } from '@nestjs/swagger';

/** docs/contract/me.md#app. */
export class AppView {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'URL' }) homeUrl!: string;
  @ApiProperty({ description: 'URL' }) logo!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() isPublic!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** docs/contract/me.md#apikey: the calling key. */
export class ApiKeyView {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'First 12 characters of the plaintext key' }) keyPrefix!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ example: 'active' }) status!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastUsedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class MeResponse {
  @ApiProperty() app!: AppView;
  @ApiProperty() apiKey!: ApiKeyView;
}
