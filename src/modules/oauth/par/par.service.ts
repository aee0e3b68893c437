import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { fieldOf, type Params } from '../../../common/http/params';
import { Application } from '../../applications/application.entity';
import { authenticateClient } from '../client-auth/authenticate-client';
import {
  CLIENT_AUTH_PARAMETERS,
  clientCredentials,
  type ClientAuthParameter,
} from '../client-auth/client-credentials';
import { redirectUriOf } from '../authorize/checks/check-redirect-uri';
import { validateAuthorizationRequest } from '../authorize/validate-request';
import { OAuthError, RefusedRequestError, invalidRequest } from '../protocol/oauth-error';
import { nonEmptyParam, type FormParams } from '../protocol/params';
import { PushedRequestStore } from './pushed-requests.store';

/** RFC 9126 section 2.2: the 201 answer. */
export interface PushedAuthorizationResponse {
  request_uri: string;
  expires_in: number;
}

/**
 * Parameters of the push that are the client's credentials, never part of the stored request:
 * the form fields of client authentication, and the assertion fields of RFC 7523 should a client
 * send them.
 */
const CREDENTIAL_FIELDS: readonly string[] = [
  ...CLIENT_AUTH_PARAMETERS,
  'client_assertion',
  'client_assertion_type',
];

/**
 * POST /oauth2/par (RFC 9126): the client authenticates as at the token endpoint (one chain,
 * client-auth/; a `none` client by its client_id, section 2), its authorization request is
 * checked by the very steps of /authorize (authorize/validate-request.ts), and the request is
 * stored for one use within PAR_REQUEST_URI_TTL_SECONDS. Every refusal is a JSON OAuth error
 * (section 2.3), never a redirect.
 */
@Injectable()
export class PushedAuthorizationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    private readonly store: PushedRequestStore,
  ) {}

  async push(
    credentialsForm: FormParams<ClientAuthParameter>,
    body: Params,
    authorization: string | undefined,
  ): Promise<PushedAuthorizationResponse> {
    // A private_key_jwt assertion may name this endpoint as its audience (client-auth/).
    const client = await authenticateClient(
      clientCredentials(credentialsForm, authorization),
      this.dataSource,
      'pushed_authorization_request_endpoint',
    );
    // Section 2.1: a request_uri cannot be pushed; request objects are not supported here either.
    if (nonEmptyParam(body, 'request_uri') !== undefined) {
      throw invalidRequest(
        'request_uri must not be sent to the pushed authorization request endpoint',
      );
    }
    if (nonEmptyParam(body, 'request') !== undefined) {
      throw new OAuthError('request_not_supported', 'Request objects are not supported');
    }
    const application = await this.applications.findOneByOrFail({ id: client.id });
    const request = withoutCredentials(body, application.clientId);
    const checked = redirectUriOf(request, application);
    if ('problem' in checked) {
      throw invalidRequest(
        checked.problem === 'missing'
          ? 'redirect_uri is required'
          : 'redirect_uri is not registered for this client',
      );
    }
    validateAuthorizationRequest(request, application, checked.redirectUri, 'pushed');
    const saved = await this.store.save(application.id, stringValues(request));
    if (saved === null) {
      throw new RefusedRequestError(
        'Too many pushed authorization requests of this client are waiting; use or let them expire',
        429,
      );
    }
    return { request_uri: saved.requestUri, expires_in: saved.expiresIn };
  }
}

/**
 * The authorization request as /authorize would read it: the parameters as they came (so that a
 * repeated or structured one is refused by the checks as there), under the authenticated
 * client's client_id, without the credentials.
 */
function withoutCredentials(body: Params, clientId: string): Params {
  const request: Params = {};
  for (const name of Object.keys(body)) {
    if (!CREDENTIAL_FIELDS.includes(name)) request[name] = body[name];
  }
  request.client_id = clientId;
  return request;
}

/**
 * What is stored of a validated request: each parameter with one string value. Any other is one
 * no check reads, which /authorize would ignore too.
 */
function stringValues(request: Params): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of Object.keys(request)) {
    const field = fieldOf(request, name);
    if (field.kind === 'value') values[name] = field.value;
  }
  return values;
}
