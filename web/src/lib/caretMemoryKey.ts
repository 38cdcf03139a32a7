/**
 * The localStorage key of the caret memory (caretMemory.ts), apart from it so that sign-out, which
 * forgets it and is in the first route's code, does not carry the editor's caret rule with it.
 */
export const CARETS_KEY = 'chronicler:carets';
