import { describe, expect, it } from 'vitest';
import { POINTER_ACTIVATION_DISTANCE, pastActivationDistance } from './pointerSensor';

describe('pointer drag activation', () => {
  it('starts a drag after 8 px of movement in any direction, not before', () => {
    expect(POINTER_ACTIVATION_DISTANCE).toBe(8);
    const origin = { x: 100, y: 100 };
    expect(pastActivationDistance(origin, { x: 107, y: 100 })).toBe(false);
    expect(pastActivationDistance(origin, { x: 105, y: 105 })).toBe(false);
    expect(pastActivationDistance(origin, { x: 108, y: 100 })).toBe(true);
    expect(pastActivationDistance(origin, { x: 100, y: 92 })).toBe(true);
    expect(pastActivationDistance(origin, { x: 106, y: 106 })).toBe(true);
  });
});
