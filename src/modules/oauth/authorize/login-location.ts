/** The login page of a pending authorization request, where the protocol sends a person. */
export const LOGIN_PATH = '/oauth2/login';

/** The login page for the sealed request `sealed` (its `request` parameter). */
export function loginLocation(sealed: string): string {
  return `${LOGIN_PATH}?request=${encodeURIComponent(sealed)}`;
}

/** The device's confirmation page (interaction/device/), where a device request goes once signed in. */
export const DEVICE_CONFIRM_PATH = '/device/confirm';

export function deviceConfirmLocation(sealed: string): string {
  return `${DEVICE_CONFIRM_PATH}?request=${encodeURIComponent(sealed)}`;
}
