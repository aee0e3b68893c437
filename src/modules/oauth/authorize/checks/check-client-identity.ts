import type { Application } from '../../../applications/application.entity';
import type { AccessDecision } from './check-user-access';

/**
 * Whether the client that receives the code is the one the user approved before (RFC 8252
 * section 8.6). A `secret` client proves itself with its secret at the token endpoint; a `none`
 * client only through an `https` redirect URI, which the web's certificates tie to its owner. A
 * loopback or private-use scheme redirect can be claimed by any program on the device, which
 * can open the browser with its own port and PKCE challenge.
 */
export function clientIdentityAssured(application: Application, redirectUri: string): boolean {
  return application.clientAuthMethod !== 'none' || redirectUri.startsWith('https://');
}

/**
 * An earlier grant is honoured without asking only for a client whose identity is assured;
 * otherwise the request is handled as if never approved: the consent page, or consent_required
 * for prompt=none (RFC 8252 section 8.6).
 */
export function unlessIdentityAssured(
  decision: AccessDecision,
  application: Application,
  redirectUri: string,
): AccessDecision {
  if (decision.kind !== 'grant' || clientIdentityAssured(application, redirectUri)) return decision;
  return { kind: 'consent', relation: decision.relation };
}
