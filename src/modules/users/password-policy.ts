import type { TranslationKeys, ZxcvbnFactory } from '@zxcvbn-ts/core';

/** NIST SP 800-63B section 3.1.1.2: at least 8 characters, and long passphrases welcome. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;
/**
 * zxcvbn's score (0 to 4) a new password must reach: 3 is "safely unguessable", about 10^8
 * guesses or more, which rules out the passwords of breach lists, keyboard walks, dictionary
 * words with common substitutions, dates, and the user's own username or email.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * zxcvbn's work grows steeply with the length of what it looks at and with the leetspeak
 * substitutions it tries, and it runs on the event loop: unbounded, one 256-character password
 * took seconds. It looks at the first 64 characters (a longer password is judged by them) and
 * tries at most 2 substitutions per word (enough for `P@ssw0rd!`), which keeps the worst case in
 * the tens of milliseconds (bench-free figures in docs/accounts.md, "Passwords").
 */
const ESTIMATED_LENGTH = 64;
const MAX_L33T_SUBSTITUTIONS = 2;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * zxcvbn with its common-password, English and keyboard dictionaries, loaded and built on first
 * use: they take about 25 MB of heap, which a process that never checks a new password (an
 * instance that only serves tokens, each test file of the suite) does not pay. It is given no
 * translations, so its feedback is its own keys (`topTen`, `straightRow`…), which the pages word
 * from their catalogs in their language.
 */
function strength(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      maxLength: ESTIMATED_LENGTH,
      l33tMaxSubstitutions: MAX_L33T_SUBSTITUTIONS,
    });
  })();
  return estimator;
}

/** Who the password is for: their own names must not make it guessable. */
export interface PasswordOwner {
  username: string;
  email: string;
}

/** The key of one of zxcvbn's warnings (why a password is guessable): `topTen`, `dates`… */
export type StrengthWarning = keyof TranslationKeys['warnings'];

/** Why a password is refused (the pages word it in their language). */
export type PasswordWeakness =
  | { kind: 'too_short'; min: number }
  | { kind: 'too_long'; max: number }
  /** zxcvbn's warning, when it has one. */
  | { kind: 'guessable'; warning?: StrengthWarning };

/**
 * The rule for every password a person chooses (sign-up, reset, change; docs/accounts.md,
 * "Passwords"): 8 to 256 characters, and a zxcvbn score of at least 3 with the person's
 * username and email counted as known words. Answers null when the password is acceptable.
 * Passwords set by an operator (CLI) are not checked.
 */
export async function passwordWeakness(
  password: string,
  owner: PasswordOwner,
): Promise<PasswordWeakness | null> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return { kind: 'too_short', min: MIN_PASSWORD_LENGTH };
  if (length > MAX_PASSWORD_LENGTH) return { kind: 'too_long', max: MAX_PASSWORD_LENGTH };
  const localPart = owner.email.split('@')[0] ?? '';
  const result = (await strength()).check(password, [owner.username, owner.email, localPart]);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const warning = result.feedback.warning as StrengthWarning | null;
  return warning ? { kind: 'guessable', warning } : { kind: 'guessable' };
}
