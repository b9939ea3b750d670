// The letter in the personal centre's avatar.
import type { UserInfo } from '../../api/contract/accounts.ts';

/**
 * The first letter of the user's name, else of their e-mail or guest name. A phone number has no
 * letter (its first character is "+"): then there is none, and the avatar shows a person.
 */
export function avatarLetter(user: Partial<Pick<UserInfo, 'firstName' | 'account' | 'accountType'>>): string | undefined {
  const source = user.firstName?.trim() || (user.accountType === 'phone' ? '' : user.account?.trim() ?? '');
  const first = Array.from(source)[0];
  return first && /[\p{L}\p{N}]/u.test(first) ? first.toLocaleUpperCase() : undefined;
}
