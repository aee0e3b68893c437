import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { issuerUrl, type IssuerPath } from '../../signing-keys/issuers';
import { SigningKeysService } from '../../signing-keys/signing-keys.service';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { AMR_OF, isOpenId, standardClaims, type ClaimSource } from '../protocol/oidc-claims';
import type { TokenResponse } from './token-issuer';

/** Whose id_token: the grant's user and client, and the code that started its family. */
export interface IdTokenSubject {
  userId: string;
  applicationId: number;
  codeId: string | null;
  /** The code exchange repeats the code's nonce; a refresh never does (OIDC Core 12.2). */
  withNonce: boolean;
}

interface ClaimRow extends ClaimSource {
  client_id: string;
  nonce: string | null;
  auth_time: Date | null;
  auth_method: SessionAuthMethod | null;
  acr: string | null;
  issuer_path: IssuerPath | null;
}

// One query, run only for grants with openid: the user's claims, the audience and, from the
// family's code, the nonce, the sign-in time and method, the acr and the issuer the
// authorization was sent to.
const CLAIMS_SQL = `SELECT u.username, u.nickname, u.avatar, u.email, u.email_verified, a.client_id,
    c.nonce, c.auth_time, c.auth_method, c.acr, c.issuer_path
  FROM users u JOIN applications a ON a.id = $2 LEFT JOIN oauth_codes c ON c.id = $3
  WHERE u.id = $1`;

/** The id_token of OpenID Connect token responses (OIDC Core 3.1.3.3, 3.1.3.6, 12.2). */
@Injectable()
export class IdTokenService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly signingKeys: SigningKeysService,
  ) {}

  /** The response unchanged without `openid` in its scope; otherwise with an id_token. */
  async attach(response: TokenResponse, subject: IdTokenSubject): Promise<TokenResponse> {
    if (!isOpenId(response.scope)) return response;
    const rows = await this.dataSource.query<ClaimRow[]>(CLAIMS_SQL, [
      subject.userId,
      subject.applicationId,
      subject.codeId,
    ]);
    const row = rows[0];
    if (!row) throw new Error(`No user ${subject.userId} for an id_token`);
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const payload = {
      // The issuer the client discovered: the one its authorization request was sent to.
      iss: issuerUrl(this.config.publicBaseUrl, row.issuer_path),
      sub: subject.userId,
      aud: row.client_id,
      exp: iat + this.config.idTokenTtlSeconds,
      iat,
      ...(row.auth_time !== null && { auth_time: Math.floor(row.auth_time.getTime() / 1000) }),
      ...(subject.withNonce && row.nonce !== null && { nonce: row.nonce }),
      ...(row.acr !== null && { acr: row.acr }),
      ...(row.auth_method !== null && { amr: [...AMR_OF[row.auth_method]] }),
      at_hash: atHash(response.access_token),
      ...standardClaims(response.scope, row),
    };
    return { ...response, id_token: await this.signingKeys.sign(payload) };
  }
}

/**
 * OIDC Core 3.1.3.6: base64url of the left half of the hash of the access token's ASCII octets,
 * with the hash of the id_token's alg (RS256 → SHA-256).
 */
export function atHash(accessToken: string): string {
  return createHash('sha256')
    .update(accessToken, 'ascii')
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
