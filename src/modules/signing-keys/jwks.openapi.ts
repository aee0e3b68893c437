import { ApiProperty } from '@nestjs/swagger';
import type { PublicJwk } from './signing-key.entity';

/** RFC 7517 section 4 / RFC 7518 section 6.3.1: a published RSA signing key, public members only. */
export class JwkView implements PublicJwk {
  @ApiProperty({ enum: ['RSA'] }) kty!: string;
  @ApiProperty({ description: 'Modulus, base64url' }) n!: string;
  @ApiProperty({ description: 'Public exponent, base64url', example: 'AQAB' }) e!: string;

  @ApiProperty({ description: 'RFC 7638 JWK thumbprint (SHA-256); the `kid` of id_token headers' })
  kid!: string;

  @ApiProperty({ enum: ['RS256'] }) alg!: 'RS256';
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
}

/** RFC 7517 section 5: the JWK Set of the next, active and still-published retired keys. */
export class JwkSetView {
  @ApiProperty({ type: [JwkView] })
  keys!: JwkView[];
}
