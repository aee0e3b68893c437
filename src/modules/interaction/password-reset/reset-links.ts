import { LOGIN_PATH } from '../../oauth/authorize/login-location';
/** The page that asks for a code. */
export const FORGOT_PASSWORD_PATH = '/oauth2/forgot-password';
/** The page where the code and the new password are entered. */
export const RESET_PASSWORD_PATH = '/oauth2/reset-password';
/** Where a reset without an authorization request ends: the end user's account page. */
export const ACCOUNT_PATH = '/account';
/** The account page's own sign-in, the way back from a reset started without a request. */
export const ACCOUNT_SIGN_IN_PATH = '/account/login';

/** `path` with the given query parameters (absent ones left out), encoded. */
export function pathWith(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) query.set(name, value);
  }
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The login page of a request, or the account page's sign-in when there is none. */
export function signInPath(request: string | undefined): string {
  return request === undefined ? ACCOUNT_SIGN_IN_PATH : pathWith(LOGIN_PATH, { request });
}
