/**
 * The rules a username and an email address obey, wherever an account is made or changed (the
 * admin CLI, sign-up, email verification): one definition, so a name the CLI accepts is one
 * sign-up accepts.
 */

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$/;
// Deliberately loose (RFC 5321 sizes, one @, a dot in the domain); ownership is proven by verification.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** What a valid username is, in words (the error message of every place that checks one). */
export const USERNAME_RULE =
  'username must be 3 to 64 letters, digits, "_", "." or "-", starting with a letter or digit';

export const EMAIL_RULE = 'email is not a valid address';

/** Whether `username` may name an account (its case is kept; uniqueness ignores it). */
export function isValidUsername(username: string): boolean {
  return USERNAME.test(username);
}

/**
 * The one form in which addresses are stored and compared (docs/accounts.md, "Addresses"):
 * Unicode NFKC, surrounding white space trimmed, then lower-cased whole (String#toLowerCase, as
 * every stored address already is), and NFKC again so that the form is its own form. NFKC first
 * makes compatibility and canonical look-alikes one address: the KELVIN SIGN (U+212A) is `K`,
 * full-width letters typed with an input method are ASCII. Every lookup by address compares
 * `lower(email)` of the stored rows with this form of what was typed (an address in this form has
 * no upper-case letter left for lower() to change, whatever the database's locale), and every
 * message goes to the address as the account stores it, never as typed.
 */
export function emailKey(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase().normalize('NFKC');
}

/** The address as stored (emailKey), or null when it is not a valid address. */
export function normalEmail(value: string): string | null {
  const email = emailKey(value);
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}
