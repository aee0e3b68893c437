import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from '../../common/crypto/signing-algs';
import type { PublicJwk } from './signing-key.entity';

/**
 * RFC 7517 section 4: a published signing key, public members only: RSA `n e` (RFC 7518 section
 * 6.3.1; RS256, PS256), EC `crv x y` (section 6.2.1; ES256), OKP `crv x` (RFC 8037; EdDSA).
 */
export class JwkView implements PublicJwk {
  @ApiProperty({ enum: ['RSA', 'EC', 'OKP'] }) kty!: 'RSA' | 'EC' | 'OKP';
  @ApiPropertyOptional({ description: 'RSA keys: modulus, base64url' }) n?: string;
  @ApiPropertyOptional({ description: 'RSA keys: public exponent, base64url', example: 'AQAB' })
  e?: string;

  @ApiPropertyOptional({ enum: ['P-256', 'Ed25519'], description: 'EC and OKP keys: the curve' })
  crv?: string;

  @ApiPropertyOptional({ description: 'EC and OKP keys: public x coordinate or key, base64url' })
  x?: string;

  @ApiPropertyOptional({ description: 'EC keys: y coordinate, base64url' }) y?: string;

  @ApiProperty({ description: 'RFC 7638 JWK thumbprint (SHA-256); the `kid` of id_token headers' })
  kid!: string;

  @ApiProperty({
    enum: ID_TOKEN_SIGNING_ALGS,
    description: 'The one alg this key signs with (each alg has keys of its own)',
  })
  alg!: IdTokenSigningAlg;

  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
}

/** RFC 7517 section 5: the JWK Set of the next, active and still-published retired keys. */
export class JwkSetView {
  @ApiProperty({ type: [JwkView] })
  keys!: JwkView[];
}
