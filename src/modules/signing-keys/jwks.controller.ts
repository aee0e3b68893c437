import { applyDecorators, Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { JwkSetView } from './jwks.openapi';
import { KEY_CACHE_SECONDS, SigningKeysService } from './signing-keys.service';

/**
 * How long a client may cache the JWKS. A key is published as `next` one rotation before it
 * signs, so a client whose copy is at most this old holds the active key as long as rotations
 * are at least this + KEY_CACHE_SECONDS apart (docs/oidc.md, "Signing keys").
 */
export const JWKS_MAX_AGE_SECONDS = 300;

const JwksDocs = (): MethodDecorator =>
  applyDecorators(
    Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`),
    ApiOperation({
      summary: 'JSON Web Key Set (RFC 7517) of the id_token signing keys',
      description:
        `The next, active and still-published retired keys of every alg in use (RS256, PS256, ` +
        `ES256, EdDSA; each key with its alg and a kid of its own), public members only; ` +
        `application/json, cacheable for ${JWKS_MAX_AGE_SECONDS} s. A key is published one ` +
        `rotation before it signs; an instance notices a rotation within ${KEY_CACHE_SECONDS} s.`,
    }),
    ApiOkResponse({ type: JwkSetView }),
  );

/** The JWK Set of the OpenID Provider (`jwks_uri` of discovery), at the original service's paths. */
@ApiTags('OAuth 2.0')
@Public()
@Controller('api/oidc')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get('jwks')
  @JwksDocs()
  jwks(): Promise<JwkSetView> {
    return this.keys.jwks();
  }

  /** The `jwks_uri` of the `/api/oidc` issuer's discovery document (signing-keys/issuers.ts). */
  @Get('.well-known/jwks.json')
  @JwksDocs()
  wellKnownJwks(): Promise<JwkSetView> {
    return this.keys.jwks();
  }
}
