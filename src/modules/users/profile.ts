import { msg, type Message } from '../../common/i18n/i18n';
import { isAllowedWebUrl } from '../applications/web-url';

/** users.nickname is varchar(64). */
export const NICKNAME_MAX = 64;
/** An avatar URL is at most as long as an application's logo URL. */
export const AVATAR_URL_MAX = 2000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What a user may change of their own profile (the account page). */
export interface ProfileChange {
  nickname: string;
  avatar: string;
}

/** Why a profile change is refused, per field (in the page's language); empty when it is fine. */
export type ProfileProblems = Partial<Record<keyof ProfileChange, Message>>;

/**
 * The rules of a profile change, on trimmed values: a nickname of at most 64 characters without
 * control characters (empty: none); an avatar URL that is https, or http on a loopback host
 * (the rule of applications' logos, web-url.ts), at most 2000 characters (empty: none).
 */
export function profileProblems(change: ProfileChange): ProfileProblems {
  const problems: ProfileProblems = {};
  if (change.nickname.length > NICKNAME_MAX || CONTROL.test(change.nickname)) {
    problems.nickname = msg('account.profile.nicknameRule', { max: NICKNAME_MAX });
  }
  if (
    change.avatar !== '' &&
    (change.avatar.length > AVATAR_URL_MAX || !isAllowedWebUrl(change.avatar))
  ) {
    problems.avatar = msg('account.profile.avatarRule', { max: String(AVATAR_URL_MAX) });
  }
  return problems;
}
