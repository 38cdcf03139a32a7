import { describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE, hasSignedInHint } from './session-hint.ts';

describe('signed-in hint', () => {
  it('is found among other cookies, and only under its own name', () => {
    expect(hasSignedInHint(`theme=dark; ${SIGNED_IN_HINT_COOKIE}=1; x=y`)).toBe(true);
    expect(hasSignedInHint(`${SIGNED_IN_HINT_COOKIE}=1`)).toBe(true);
    expect(hasSignedInHint('')).toBe(false);
    expect(hasSignedInHint(`x${SIGNED_IN_HINT_COOKIE}=1; ${SIGNED_IN_HINT_COOKIE}x=1`)).toBe(false);
  });
});
