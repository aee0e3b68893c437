import { invalidRequest } from '../oauth-error';

export type Params = Record<string, unknown>;

/**
 * One parameter as a string, undefined when absent. A parameter sent twice (an array) or as a
 * nested object is malformed: RFC 6749 sections 3.1 and 3.2 forbid repeating parameters.
 */
export function param(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw invalidRequest(`The ${name} parameter is repeated or malformed`);
  return value;
}

/** Like param(), but an empty value counts as absent (RFC 6749 section 3.1). */
export function nonEmptyParam(params: Params, name: string): string | undefined {
  const value = param(params, name);
  return value === '' ? undefined : value;
}
