/**
 * The signed-in hint: a cookie the page can read, set and cleared by the server together with the
 * httpOnly session cookie. It grants nothing (the session cookie does); it only tells the app that
 * a session may exist, so a first-time visitor's page never asks GET /api/user and gets the spec's
 * 401 (which browsers log as a console error).
 */
export const SIGNED_IN_HINT_COOKIE = 'chronicler_signed_in';

/** True when a `Cookie` header or `document.cookie` string carries the signed-in hint. */
export function hasSignedInHint(cookies: string): boolean {
  return cookies.split(';').some((pair) => pair.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}
