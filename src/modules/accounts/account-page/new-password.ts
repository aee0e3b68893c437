/** The shortest password a user may choose (the CLI's `user create` rule). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Why a new password typed twice on the account page is refused, or null: both entries must be
 * equal and at least MIN_PASSWORD_LENGTH characters long.
 */
export function newPasswordProblem(password: string, repeated: string): string | null {
  if (password !== repeated) return 'The two new passwords differ.';
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The new password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  return null;
}
