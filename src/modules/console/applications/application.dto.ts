import { applyDecorators } from '@nestjs/common';
import { PROFILE_NAMES, type ProfileName } from '../../applications/security-profile';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { AtLeastOneField, IfPresent } from '../../../common/validation/dto-decorators';
import { CLIENT_AUTH_METHODS, type ClientAuthMethod } from '../../applications/application.entity';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from '../../../common/crypto/signing-algs';

// Shapes only; the rules on the values (URLs, redirect URIs, names) are ApplicationsService's.
const NAME_MAX = 100;
const TEXT_MAX = 2000;
const URL_MAX = 2000;
const MAX_REDIRECT_URIS = 20;
const MAX_REQUIRED_UPSTREAMS = 20;
const PROVIDER_ID_MAX = 64;

const POST_LOGOUT_URIS =
  'Where RP-initiated logout may return: exact match, the same rule as redirect URIs; [] for none';

const SIGN_UP =
  'Whether the login page offers "Create an account" (only while SIGNUP_ENABLED allows sign-up; docs/accounts.md)';
const REQUIRE_PAR =
  'Whether the client must push its authorization requests (RFC 9126 section 5): /oauth2/authorize without a request_uri is answered invalid_request. No passkey confirmation: it only narrows how the client may start a sign-in (docs/console.md)';

const DPOP_BOUND =
  'Whether every token request of the client must carry a DPoP proof (RFC 9449 section 5.2, `dpop_bound_access_tokens`), so that its tokens are always bound to its key; without one the token endpoint answers invalid_request. No passkey confirmation, like requirePushedAuthorizationRequests (docs/console.md)';

const DEVICE_CODE_GRANT =
  'Whether the client is registered for the device authorization grant (RFC 8628; docs/oauth.md, "Device authorization grant"): POST /oauth2/device_authorization and the token endpoint\'s urn:ietf:params:oauth:grant-type:device_code; otherwise both answer unauthorized_client. A `fapi2` client cannot enable it. No passkey confirmation (docs/console.md)';

const PROFILE =
  'The security profile the client runs under (docs/oidc.md, "FAPI 2.0 Security Profile"): `fapi2` requires pushed requests, PKCE, private_key_jwt, DPoP and an id_token alg of PS256, ES256 or EdDSA, and keeps codes to 60 s; a registration that does not meet it is 400 invalid_request. `none` for no profile. No passkey confirmation (it only narrows what the client may do)';

const BACKCHANNEL_LOGOUT_URI =
  'Where the logout tokens of OpenID Connect Back-Channel Logout 1.0 go when a session in which the client got an id_token ends (`backchannel_logout_uri`; docs/oidc.md, "Back-channel logout"): https, no credentials, no fragment (plain http only on a loopback host with WEBHOOKS_ALLOW_INSECURE), else 400 invalid_request or insecure_endpoint. Setting or changing it needs a client_settings.update passkey confirmation bound to it; null removes it without one';
const BACKCHANNEL_SESSION_REQUIRED =
  '`backchannel_logout_session_required`: whether the client needs `sid` in its logout tokens. Every logout token carries `sid` whatever this says; no passkey confirmation';

const Profile = (): PropertyDecorator =>
  IsIn(PROFILE_NAMES, { message: `securityProfile must be one of ${PROFILE_NAMES.join(', ')}` });
const ID_TOKEN_ALG =
  'The JWS alg of this client\'s id_tokens (OIDC Dynamic Client Registration 1.0 section 2, id_token_signed_response_alg): RS256 (the default), PS256, ES256 or EdDSA (Ed25519); each alg is signed by keys of its own (docs/oidc.md, "Signing keys"). Anything else is 400 invalid_body. No passkey confirmation: every value is one the provider signs safely, and it changes what the client verifies, not who receives tokens (docs/console.md)';

/** One of ID_TOKEN_SIGNING_ALGS (never none, never an HMAC). */
const IdTokenAlg = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      enum: ID_TOKEN_SIGNING_ALGS,
      default: 'RS256',
      description: ID_TOKEN_ALG,
    }),
    IfPresent(),
    IsIn(ID_TOKEN_SIGNING_ALGS, {
      message: `idTokenSignedResponseAlg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`,
    }),
  );

/** A string of at most `max` characters. */
const Text = (max: number): PropertyDecorator => {
  const message = `$property must be a string of at most ${max} characters`;
  return applyDecorators(IsString({ message }), MaxLength(max, { message }));
};

/** A list of at most `maxItems` strings of at most `maxLength` characters each. */
const TextList = (maxItems: number, maxLength: number): PropertyDecorator => {
  const message = `$property must be a list of at most ${maxItems} strings`;
  return applyDecorators(
    IsArray({ message }),
    ArrayMaxSize(maxItems, { message }),
    IsString({ each: true, message }),
    MaxLength(maxLength, { each: true, message }),
  );
};

const AuthMethod = (): PropertyDecorator =>
  IsIn(CLIENT_AUTH_METHODS, {
    message: `clientAuthMethod must be one of ${CLIENT_AUTH_METHODS.join(', ')}`,
  });

const JWKS =
  'private_key_jwt clients: their public signing keys as a JWK Set (RSA ≥ 2048 bits, EC P-256, Ed25519; no private members, no `oct` keys); replaces jwksUri; null removes it (docs/oauth.md, "Client authentication")';
const JWKS_URI =
  'private_key_jwt clients: an https URL serving their JWK Set, fetched and cached by the service; replaces jwks; null removes it';

/** A field that may be null (to remove the value): only its shape is checked when it is not. */
const NullOr = (decorator: PropertyDecorator): PropertyDecorator =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null),
    decorator,
  );

const Jwks = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: true,
      nullable: true,
      description: JWKS,
    }),
    NullOr(IsObject({ message: 'jwks must be a JWK Set object or null' })),
  );

const JwksUri = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: URL_MAX,
      description: JWKS_URI,
    }),
    NullOr(Text(URL_MAX)),
  );

const Flag = (): PropertyDecorator => IsBoolean({ message: '$property must be true or false' });

/** Body of POST /api/console/applications: name required, the rest optional. */
export class NewApplicationBody {
  @ApiProperty({ maxLength: NAME_MAX })
  @Text(NAME_MAX)
  name!: string;

  @ApiPropertyOptional({ maxLength: TEXT_MAX })
  @IfPresent()
  @Text(TEXT_MAX)
  description?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX, description: 'URL' })
  @IfPresent()
  @Text(URL_MAX)
  homeUrl?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX, description: 'URL' })
  @IfPresent()
  @Text(URL_MAX)
  logo?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REDIRECT_URIS,
    description: 'Exact-match redirect URIs',
  })
  @IfPresent()
  @TextList(MAX_REDIRECT_URIS, URL_MAX)
  redirectUris?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REDIRECT_URIS,
    description: POST_LOGOUT_URIS,
  })
  @IfPresent()
  @TextList(MAX_REDIRECT_URIS, URL_MAX)
  postLogoutRedirectUris?: string[];

  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS, default: 'secret' })
  @IfPresent()
  @AuthMethod()
  clientAuthMethod?: ClientAuthMethod;

  @Jwks()
  jwks?: object | null;

  @JwksUri()
  jwksUri?: string | null;

  @ApiPropertyOptional({ default: false })
  @IfPresent()
  @Flag()
  isPublic?: boolean;

  @ApiPropertyOptional({ default: false })
  @IfPresent()
  @Flag()
  requireVerifiedEmail?: boolean;

  @ApiPropertyOptional({ default: false, description: SIGN_UP })
  @IfPresent()
  @Flag()
  signUpEnabled?: boolean;

  @ApiPropertyOptional({ default: false, description: REQUIRE_PAR })
  @IfPresent()
  @Flag()
  requirePushedAuthorizationRequests?: boolean;

  @ApiPropertyOptional({ default: false, description: DPOP_BOUND })
  @IfPresent()
  @Flag()
  dpopBoundAccessTokens?: boolean;

  @ApiPropertyOptional({ default: false, description: DEVICE_CODE_GRANT })
  @IfPresent()
  @Flag()
  deviceCodeGrant?: boolean;

  @ApiPropertyOptional({ enum: PROFILE_NAMES, default: 'none', description: PROFILE })
  @IfPresent()
  @Profile()
  securityProfile?: ProfileName;
  @IdTokenAlg()
  idTokenSignedResponseAlg?: IdTokenSigningAlg;
}

/** Body of PATCH /api/console/applications/{id}: any of these, at least one (empty_body). */
@AtLeastOneField()
export class ApplicationSettingsBody {
  @ApiPropertyOptional({ maxLength: NAME_MAX })
  @IfPresent()
  @Text(NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ maxLength: TEXT_MAX })
  @IfPresent()
  @Text(TEXT_MAX)
  description?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX })
  @IfPresent()
  @Text(URL_MAX)
  homeUrl?: string;

  @ApiPropertyOptional({ maxLength: URL_MAX })
  @IfPresent()
  @Text(URL_MAX)
  logo?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_REDIRECT_URIS })
  @IfPresent()
  @TextList(MAX_REDIRECT_URIS, URL_MAX)
  redirectUris?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REDIRECT_URIS,
    description: POST_LOGOUT_URIS,
  })
  @IfPresent()
  @TextList(MAX_REDIRECT_URIS, URL_MAX)
  postLogoutRedirectUris?: string[];

  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS })
  @IfPresent()
  @AuthMethod()
  clientAuthMethod?: ClientAuthMethod;

  @Jwks()
  jwks?: object | null;

  @JwksUri()
  jwksUri?: string | null;

  @ApiPropertyOptional()
  @IfPresent()
  @Flag()
  isPublic?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @Flag()
  enabled?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @Flag()
  requireVerifiedEmail?: boolean;

  @ApiPropertyOptional({ description: SIGN_UP })
  @IfPresent()
  @Flag()
  signUpEnabled?: boolean;

  @ApiPropertyOptional({ description: REQUIRE_PAR })
  @IfPresent()
  @Flag()
  requirePushedAuthorizationRequests?: boolean;

  @ApiPropertyOptional({ description: DPOP_BOUND })
  @IfPresent()
  @Flag()
  dpopBoundAccessTokens?: boolean;

  @ApiPropertyOptional({ description: DEVICE_CODE_GRANT })
  @IfPresent()
  @Flag()
  deviceCodeGrant?: boolean;

  @ApiPropertyOptional({ enum: PROFILE_NAMES, description: PROFILE })
  @IfPresent()
  @Profile()
  securityProfile?: ProfileName;
  @IdTokenAlg()
  idTokenSignedResponseAlg?: IdTokenSigningAlg;

  // Shape only here; whether each id names a configured provider is the service's check.
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REQUIRED_UPSTREAMS,
    description: 'Configured upstream provider ids (400 invalid_request for another); [] for none',
  })
  @IfPresent()
  @TextList(MAX_REQUIRED_UPSTREAMS, PROVIDER_ID_MAX)
  requiredUpstreams?: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: URL_MAX,
    description: BACKCHANNEL_LOGOUT_URI,
  })
  @NullOr(Text(URL_MAX))
  backchannelLogoutUri?: string | null;

  @ApiPropertyOptional({ description: BACKCHANNEL_SESSION_REQUIRED })
  @IfPresent()
  @Flag()
  backchannelLogoutSessionRequired?: boolean;
}
