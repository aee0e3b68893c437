import { OAuthError } from '../../protocol/oauth-error';
import { isOpenId } from '../../protocol/oidc-claims';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/** The prompt values besides `none` (OIDC Core 3.1.2.1), accepted in OpenID Connect requests. */
export const INTERACTIVE_PROMPTS = ['login', 'consent', 'select_account'] as const;
export type InteractivePrompt = (typeof INTERACTIVE_PROMPTS)[number];

export interface PromptParams {
  prompt: 'none' | null;
  /** Absent when the request asks for none of them (and always without openid). */
  prompts?: InteractivePrompt[];
}

/**
 * prompt: `none` alone (docs/contract/oauth.md#authorization-request). An OpenID Connect request (`openid` in scope) may also
 * ask for `login`, `consent` and `select_account`, together; `none` with any other value is
 * invalid_request (OIDC Core 3.1.2.1). Without openid, `none` is the only value, as before.
 */
export function checkPrompt(params: Params, scope: string): PromptParams {
  const prompt = param(params, 'prompt');
  if (prompt === undefined || prompt === '') return { prompt: null };
  const values = [...new Set(prompt.split(' ').filter((value) => value !== ''))];
  if (prompt !== 'none' && values.includes('none')) {
    throw new OAuthError('invalid_request', 'prompt=none cannot be combined with other values');
  }
  if (prompt === 'none') return { prompt: 'none' };
  if (!isOpenId(scope)) {
    throw new OAuthError('invalid_request', 'The only supported prompt value is none');
  }
  const unknown = values.find((value) => !isInteractivePrompt(value));
  if (unknown !== undefined || values.length === 0) {
    // The description goes to the client's redirect_uri: it names a value of the OIDC prompt
    // registry, never the sender's own text (docs/security.md, "OAuth provider endpoints").
    const named =
      unknown !== undefined && REGISTERED_PROMPTS.includes(unknown) ? `: ${unknown}` : '';
    throw new OAuthError('invalid_request', `Unsupported prompt value${named}`);
  }
  return { prompt: null, prompts: values as InteractivePrompt[] };
}

/** The prompt values registered for OpenID Connect that this provider does not serve. */
const REGISTERED_PROMPTS = ['create'];

function isInteractivePrompt(value: string): value is InteractivePrompt {
  return (INTERACTIVE_PROMPTS as readonly string[]).includes(value);
}
