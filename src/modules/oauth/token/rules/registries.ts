import { checkRelation, type RelationState } from './check-relation';
import { codeIssuedToClient, codeNotExpired, codeRedirectUriMatches } from './check-code-binding';
import { refreshScopeNotWidened } from './check-refresh-scope';
import {
  refreshTokenKeyMatches,
  refreshTokenNotExpired,
  refreshTokenNotReplayed,
  refreshTokenNotRevoked,
  refreshTokenNotSuperseded,
  refreshTokenOfClient,
  type RefreshFailureContext,
} from './check-refresh-token';
import { verifyPkce } from './verify-pkce';
import type { StepOutcomes, TokenStep } from './step';

/** The consumed code (`c`) with its relation, as the exchange statement returns it. */
export interface ExchangeRow extends RelationState, StepOutcomes {
  id: string;
  application_id: number;
  user_id: string;
  code_challenge: string | null;
  scope: string;
}

export interface ExchangeContext {
  /** The code_verifier sent, if any. */
  verifier: string | undefined;
}

/** The presented refresh token (`t`) with its relation, as the step-by-step refresh reads it. */
export interface RefreshRow extends RelationState, StepOutcomes {
  id: string;
  application_id: number;
  user_id: string;
  scope: string;
  family_id: string;
  code_id: string | null;
  generation: number;
}

/**
 * Every rule of a successful code exchange (RFC 6749 section 4.1.3, RFC 7636 section 4.6,
 * docs/contract/users.md#states-of-a-user-in-an-application), in the order failures are named. grants/authorization-code-sql.ts assembles its
 * statement from this list; a step that is not listed here is not a step (registries.spec.ts).
 */
export const EXCHANGE_STEPS: readonly TokenStep<ExchangeRow, ExchangeContext>[] = [
  codeIssuedToClient,
  codeNotExpired,
  codeRedirectUriMatches,
  verifyPkce,
  checkRelation,
];

/** Every rule of a successful refresh (RFC 6749 section 6, RFC 9700 section 4.14.2), in order. */
export const REFRESH_STEPS: readonly TokenStep<RefreshRow, RefreshFailureContext>[] = [
  refreshTokenOfClient,
  refreshTokenKeyMatches,
  refreshTokenNotRevoked,
  refreshTokenNotReplayed,
  refreshTokenNotSuperseded,
  refreshTokenNotExpired,
  refreshScopeNotWidened,
  checkRelation,
];
