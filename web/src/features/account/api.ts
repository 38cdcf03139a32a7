/** The account routes of the server (sync-server/src/auth/account-routes.ts). */
import type { AccountSession } from '@chronicler/schema';
import { api } from '@/lib/api';

export async function fetchSessions(): Promise<AccountSession[]> {
  const answer = await api.get<{ sessions: AccountSession[] }>('/api/user/sessions');
  return answer?.sessions ?? [];
}

export async function endSession(id: string): Promise<void> {
  await api.delete(`/api/user/sessions/${encodeURIComponent(id)}`);
}

/** Ends every session but this one; answers how many ended. */
export async function signOutOtherSessions(): Promise<number> {
  const answer = await api.post<{ ended?: number }>('/api/user/sessions/sign-out-others');
  return answer?.ended ?? 0;
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/** The server signs out every other session and gives this device a fresh one. */
export async function changePassword(change: PasswordChange): Promise<void> {
  await api.post('/api/user/password', change);
}

/** What the author's pictures use of the plan's cloud storage (docs/decisions/0023-pictures-on-the-device.md). */
export interface MediaUsage {
  usedBytes: number;
  allowanceBytes: number;
  perPictureBytes: number;
}

export async function fetchMediaUsage(): Promise<MediaUsage> {
  const answer = await api.get<MediaUsage>('/api/media/usage');
  if (!answer || typeof answer.usedBytes !== 'number' || typeof answer.allowanceBytes !== 'number') throw new Error('Unexpected storage answer');
  return { usedBytes: answer.usedBytes, allowanceBytes: answer.allowanceBytes, perPictureBytes: answer.perPictureBytes ?? 0 };
}
