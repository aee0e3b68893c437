import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import type { ClientJwks } from '../../applications/client-jwks';
import { loadJose } from '../../signing-keys/jose';
import { issuerUrls } from '../../signing-keys/issuers';
import { FAPI2_JWS_ALGS, type SecurityProfile } from '../../applications/security-profile';
import { assertionFailed } from './assertion-failure';
import { assertionAudiences, type AuthenticatingEndpoint } from './assertion-audiences';
import { AssertionRefused, verifyAssertion } from './assertion-claims';
import { spendAssertionJti } from './assertion-jtis';
import type { JwtCredentials } from './assertion-credentials';
import { JwksCache } from './jwks-cache';
import { fetchJwks, JwksFetchError } from './jwks-fetch';

/** The client columns an assertion is verified with. */
export interface KeyedClient {
  clientId: string;
  jwks: ClientJwks | null;
  jwksUri: string | null;
  securityProfile: SecurityProfile | null;
}

/**
 * The verifier of each application's data source: authenticateClient finds it by the data
 * source the endpoint already passes, so every endpoint that authenticates clients (the token,
 * revocation and introspection endpoints, and any later one) verifies assertions without a
 * dependency of its own, and two apps in one process (tests) each use their own.
 */
const verifiers = new WeakMap<DataSource, ClientAssertions>();

export function clientAssertionsOf(dataSource: DataSource): ClientAssertions | undefined {
  return verifiers.get(dataSource);
}

/**
 * private_key_jwt client authentication (RFC 7523 section 2.2; docs/oauth.md, "Client
 * authentication"): the assertion verified with the client's registered keys (inline, or its
 * jwks_uri through JwksCache), then its `jti` spent (assertion-jtis.ts). Every failure is the
 * same invalid_client (assertion-failure.ts).
 */
@Injectable()
export class ClientAssertions implements OnModuleInit {
  private readonly cache: JwksCache;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    const policy = {
      allowedPrivateHosts: config.webhooksAllowedPrivateHosts,
      allowLoopback: config.webhooksAllowInsecure,
    };
    this.cache = new JwksCache(
      (uri) => fetchJwks(uri, policy),
      () => clock.now().getTime(),
    );
  }

  onModuleInit(): void {
    verifiers.set(this.dataSource, this);
  }

  /** Resolves when `credentials` authenticate `client`; throws invalid_client otherwise. */
  async verify(
    client: KeyedClient,
    credentials: JwtCredentials,
    endpoint?: AuthenticatingEndpoint,
  ): Promise<void> {
    const { clientId } = client;
    const base = this.config.publicBaseUrl;
    // FAPI 2.0 section 5.3.2.1: a fapi2 client's assertion names the issuer identifier alone
    // (no endpoint URL, which a hostile server could have a client sign for it), signed with
    // PS256, ES256 or EdDSA (section 5.4.1).
    const fapi2 = client.securityProfile === 'fapi2';
    const expected = {
      clientId,
      audiences: fapi2 ? issuerUrls(base) : assertionAudiences(base, endpoint),
      algorithms: fapi2 ? FAPI2_JWS_ALGS : undefined,
      now: this.clock.now(),
    };
    try {
      const jose = await loadJose();
      let verified;
      try {
        verified = await verifyAssertion(
          jose,
          credentials.assertion,
          await this.keys(client),
          expected,
        );
      } catch (error) {
        // A client that rotated its keys: the cached set lacks the new kid. Fetched again once.
        if (!(error instanceof AssertionRefused && error.noMatchingKey && client.jwksUri))
          throw error;
        const keys = await this.keys(client, true);
        verified = await verifyAssertion(jose, credentials.assertion, keys, expected);
      }
      const first = await spendAssertionJti(
        this.dataSource,
        clientId,
        verified.jti,
        verified.expiresAt,
        expected.now,
      );
      if (!first) throw new AssertionRefused('jti already used (replay)');
    } catch (error) {
      if (error instanceof AssertionRefused || error instanceof JwksFetchError) {
        throw assertionFailed(error.message, clientId);
      }
      throw error;
    }
  }

  private async keys(client: KeyedClient, refresh = false): Promise<ClientJwks> {
    if (client.jwks !== null) return client.jwks;
    if (client.jwksUri !== null) return this.cache.keys(client.jwksUri, refresh);
    throw new AssertionRefused('the client has no keys');
  }
}
