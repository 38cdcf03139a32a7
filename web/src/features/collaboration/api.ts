/** The calls of the Collaboration page (spec 001 §7 "Collaboration", and the member routes beyond it). */
import type {
  ActivityEntry,
  CollaborativeSeries,
  CreateCollaborativeSeriesBody,
  Invite,
  InviteBody,
  InviteLink,
  InviteRole,
  MembersResponse,
} from '@chronicler/schema';
import { api } from '@/lib/api';

const base = '/api/collaboration';
const series = (id: string) => `${base}/series/${encodeURIComponent(id)}`;

export const collaborationApi = {
  listSeries: () => api.get<CollaborativeSeries[]>(`${base}/series`),
  pendingInvites: () => api.get<Invite[]>(`${base}/pending-invites`),
  createSeries: (body: CreateCollaborativeSeriesBody) => api.post<CollaborativeSeries>(`${base}/series`, body),
  invite: (seriesId: string, body: InviteBody) => api.post<Invite>(`${series(seriesId)}/invites`, body),
  inviteLink: (seriesId: string, role: InviteRole) => api.post<InviteLink>(`${series(seriesId)}/invite-links`, { role }),
  accept: (inviteId: string) => api.post<{ invite: Invite; series: CollaborativeSeries | null }>(`${base}/invites/${encodeURIComponent(inviteId)}/accept`),
  decline: (inviteId: string) => api.post<Invite>(`${base}/invites/${encodeURIComponent(inviteId)}/decline`),
  acceptLink: (token: string) => api.post<{ invite: Invite; series: CollaborativeSeries | null }>(`${base}/invite-links/accept`, { token }),
  revoke: (inviteId: string) => api.delete<Invite>(`${base}/invites/${encodeURIComponent(inviteId)}`),
  members: (seriesId: string) => api.get<MembersResponse>(`${series(seriesId)}/members`),
  changeRole: (seriesId: string, userId: string, role: InviteRole) => api.put<MembersResponse>(`${series(seriesId)}/members/${encodeURIComponent(userId)}`, { role }),
  removeMember: (seriesId: string, userId: string) => api.delete<MembersResponse>(`${series(seriesId)}/members/${encodeURIComponent(userId)}`),
  leave: (seriesId: string) => api.post<{ left: string }>(`${series(seriesId)}/leave`),
  transfer: (seriesId: string, userId: string) => api.post<MembersResponse>(`${series(seriesId)}/transfer`, { userId }),
  activity: (seriesId: string) => api.get<ActivityEntry[]>(`${series(seriesId)}/activity?limit=20`),
};
