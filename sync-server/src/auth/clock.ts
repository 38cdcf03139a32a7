/**
 * The time source of the auth module. Session expiry and login throttling read it, so tests move
 * time forward (`app.authClock.now = () => t`) instead of waiting out 15-minute windows.
 */
export interface Clock {
  now(): number;
}

export function systemClock(): Clock {
  return { now: () => Date.now() };
}
