/** Text of the sign-out warning (SignOutGuardModal; exported for tests). */
export function unsyncedWarning(count: number): string {
  return count === 1 ? '1 unsynced change remains' : `${count} unsynced changes remain`;
}

export interface SignOutGuardModalProps {
  /** Unsynced changes; null while no sign-out waits for an answer. */
  count: number | null;
  /** true: sign out anyway; false: stay signed in. */
  onAnswer: (proceed: boolean) => void;
}
