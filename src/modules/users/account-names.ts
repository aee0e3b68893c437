/**
 * The rules a username and an email address obey, wherever an account is made or changed (the
 * admin CLI, sign-up, email verification): one definition, so a name the CLI accepts is one
 * sign-up accepts.
 */

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$/;
// An address a mail server delivers to exactly as written (docs/accounts.md, "Addresses"): a
// dot-atom local part (RFC 5322 atext, letters and digits of any script for internationalised
// addresses, RFC 6531) and a host name of at least two labels whose last holds a letter. No quoted
// local part, comment, list or IP literal: `"dup"@evil.org`, `dup@evil.org,` (a list) and
// `(c)dup@evil.org` reach the one mailbox dup@evil.org, so each would be another account verified
// by the same inbox, and an application would be handed an address that is not the mailbox's.
const ATEXT = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const TOP_LABEL = '(?=[\\p{L}\\p{N}-]*\\p{L})' + LABEL;
const EMAIL = new RegExp(
  `^(?=[^@]{1,64}@)${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}\\.)+${TOP_LABEL}$`,
  'u',
);

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
