import { randomBytes } from 'node:crypto';
import type { StartParams } from '../../../src/modules/upstreams/providers/upstream-provider';

/** What the flow would generate for one attempt: fresh state, nonce and PKCE verifier. */
export function freshParams(redirectUri: string): StartParams {
  return {
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    codeVerifier: randomBytes(32).toString('base64url'),
    redirectUri,
  };
}
