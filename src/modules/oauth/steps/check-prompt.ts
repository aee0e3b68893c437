import { OAuthError } from '../oauth-error';
import { param, type Params } from './params';

/** prompt accepts only `none`, and never together with other values (spec section 4.2). */
export function checkPrompt(params: Params): 'none' | null {
  const prompt = param(params, 'prompt');
  if (prompt === undefined || prompt === '') return null;
  if (prompt !== 'none') {
    const values = prompt.split(' ').filter((value) => value !== '');
    const description = values.includes('none')
      ? 'prompt=none cannot be combined with other values'
      : 'The only supported prompt value is none';
    throw new OAuthError('invalid_request', description);
  }
  return 'none';
}
