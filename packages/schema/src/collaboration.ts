/**
 * Collaboration (spec 001 §2, §3, §4, §5, §6, §7; docs/server.md#collaboration): a collaborative
 * series is a series with members. The roles, what each may do, the invite lifecycle and the
 * request and answer shapes of /api/collaboration/…, shared by the server (enforcement) and the web
 * app (what to show and lock).
 */
import { z } from 'zod';
import { LIMITS } from './entities.ts';
import { MESSAGES, MINIMUMS } from './messages.ts';

// ---------------------------------------------------------------------------------------------
// Roles

/** Lowest to highest. The owner is the series' ownerId; the others are memberships. */
export const SERIES_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type SeriesRole = (typeof SERIES_ROLES)[number];

/** The roles an invite (and a role change) may give (001 §3, §9); ownership is transferred, never invited. */
export const INVITE_ROLES = ['viewer', 'editor', 'admin'] as const;
export type InviteRole = (typeof INVITE_ROLES)[number];
export const DEFAULT_INVITE_ROLE: InviteRole = 'viewer';

/** read: see it; edit: change its content; manage: invite and manage members; own: delete it, transfer it. */
export const ACCESS_LEVELS = ['read', 'edit', 'manage', 'own'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

const LEVEL_NEEDS: Record<AccessLevel, SeriesRole> = { read: 'viewer', edit: 'editor', manage: 'admin', own: 'owner' };

export function roleRank(role: SeriesRole): number {
  return SERIES_ROLES.indexOf(role);
}

/** Whether `role` may do what `level` asks (the server's check and the web's lock). */
export function roleAllows(role: SeriesRole, level: AccessLevel): boolean {
  return roleRank(role) >= roleRank(LEVEL_NEEDS[level]);
}

/** A stored membership role read defensively: anything unknown is the least, viewer. */
export function memberRoleOf(stored: string): Exclude<SeriesRole, 'owner'> {
  return stored === 'admin' || stored === 'editor' ? stored : 'viewer';
}

export const ROLE_LABELS: Readonly<Record<SeriesRole, string>> = { viewer: 'Viewer', editor: 'Editor', admin: 'Admin', owner: 'Owner' };
export const ROLE_DESCRIPTIONS: Readonly<Record<SeriesRole, string>> = {
  viewer: 'Can read the series',
  editor: 'Can edit the series content',
  admin: 'Can edit, invite and manage members',
  owner: 'Owns the series; its plan sets the limits',
};

/** The 403 messages of a write a role does not allow (the server says them; the web shows them). */
export const ROLE_MESSAGES = {
  tooLow: 'Your role in this series does not allow this change',
  ownerOnly: 'Only the owner of this series can do this',
  /** Why a viewer's screens are read-only. */
  readOnly: 'You are a viewer of this series: you can read it but not change it. Ask its owner or an admin for the editor role.',
  ownerCannotLeave: 'The owner cannot leave their own series. Transfer it to a member first, or delete it.',
  cannotChangeOwner: "The owner's role cannot be changed. Transfer the series instead.",
  adminCannotManageAdmin: 'Only the owner can change or remove an admin',
  alreadyMember: 'This author is already a member of the series',
  inviteSelf: 'You are already in this series',
} as const;

export const forbiddenMessageFor = (level: AccessLevel): string => (level === 'own' ? ROLE_MESSAGES.ownerOnly : ROLE_MESSAGES.tooLow);

// ---------------------------------------------------------------------------------------------
// Invites

/** An invite expires 14 days after it was sent (or last re-sent); the spec leaves the length open. */
export const INVITE_TTL_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export const INVITE_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export function inviteExpiresAt(sentAt: Date): string {
  return new Date(sentAt.getTime() + INVITE_TTL_DAYS * DAY_MS).toISOString();
}

export function isInviteExpired(expiresAt: string, now: Date = new Date()): boolean {
  return Date.parse(expiresAt) <= now.getTime();
}

export const INVITE_MESSAGES = {
  expired: 'This invitation has expired. Ask the series owner to send a new one.',
  notPending: 'This invitation has already been answered',
  linkUsed: 'This invitation link has already been used or revoked',
} as const;

// ---------------------------------------------------------------------------------------------
// Request bodies (001 §5, §7)

/** POST /api/collaboration/series: {name, description, isPublic} (001 §5 minimum lengths). */
export const createCollaborativeSeriesBodySchema = z.strictObject({
  id: z.uuid({ error: 'Must be a valid id' }).optional(),
  name: z
    .string({ error: MESSAGES.collaboration.nameMin })
    .trim()
    .min(MINIMUMS.collaborativeSeriesName, { error: MESSAGES.collaboration.nameMin })
    .max(LIMITS.title, { error: `Must be at most ${LIMITS.title} characters` }),
  description: z
    .string({ error: MESSAGES.collaboration.descriptionMin })
    .trim()
    .min(MINIMUMS.collaborativeSeriesDescription, { error: MESSAGES.collaboration.descriptionMin })
    .max(LIMITS.longText, { error: `Must be at most ${LIMITS.longText} characters` }),
  isPublic: z.boolean().default(false),
});
export type CreateCollaborativeSeriesBody = z.input<typeof createCollaborativeSeriesBodySchema>;

const inviteRole = z.enum(INVITE_ROLES, { error: MESSAGES.collaboration.roleRequired });

/** POST /api/collaboration/series/{seriesId}/invites: {inviteeEmail, role, message}. */
export const inviteBodySchema = z.strictObject({
  inviteeEmail: z
    .string({ error: MESSAGES.collaboration.invalidEmail })
    .trim()
    .pipe(z.email({ error: MESSAGES.collaboration.invalidEmail }).max(254, { error: MESSAGES.collaboration.invalidEmail })),
  role: inviteRole.default(DEFAULT_INVITE_ROLE),
  message: z.string().max(LIMITS.shortText * 5, { error: `Must be at most ${LIMITS.shortText * 5} characters` }).optional(),
});
export type InviteBody = z.input<typeof inviteBodySchema>;

/** POST /api/collaboration/series/{seriesId}/invite-links: a single-use link for an invitee whose e-mail differs. */
export const inviteLinkBodySchema = z.strictObject({ role: inviteRole.default(DEFAULT_INVITE_ROLE) });

/** PUT /api/collaboration/series/{seriesId}/members/{userId}. */
export const changeRoleBodySchema = z.strictObject({ role: inviteRole });

/** POST /api/collaboration/series/{seriesId}/transfer: the new owner must be a member. */
export const transferBodySchema = z.strictObject({ userId: z.string().min(1).max(100) });

// ---------------------------------------------------------------------------------------------
// Answers

/** A series as the Collaboration page lists it: the spec's CollaborativeSeries fields plus the caller's standing. */
export interface CollaborativeSeries {
  id: string;
  /** The series' title (docs/spec-differences.md: a collaborative series is a series). */
  name: string;
  description: string;
  isPublic: boolean;
  ownerId: string;
  ownerName: string;
  createdAt: string;
  role: SeriesRole;
  /** Members other than the owner, live ones only. */
  memberCount: number;
  pendingInviteCount: number;
}

export interface Invite {
  id: string;
  inviterId: string;
  inviterName: string;
  collaborativeSeriesId: string;
  seriesName: string;
  role: InviteRole;
  message: string | null;
  expiresAt: string;
  /** Null for a link invite. */
  inviteeEmail: string | null;
  status: InviteStatus;
  createdAt: string;
}

export interface SeriesMember {
  userId: string;
  displayName: string;
  username: string;
  role: SeriesRole;
  joinedAt: string;
}

export interface MembersResponse {
  members: SeriesMember[];
  /** Pending invites (managers only; empty for the others). */
  invites: Invite[];
}

export interface InviteLink {
  invite: Invite;
  /** Shown once: the single-use token of /collaboration?invite={token}. */
  token: string;
}

export const ACTIVITY_ACTIONS = [
  'series.created', 'member.invited', 'member.joined', 'member.declined', 'member.roleChanged', 'member.removed', 'member.left',
  'invite.revoked', 'series.transferred', 'content.changed',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export interface ActivityEntry {
  id: string;
  seriesId: string;
  userId: string;
  userName: string;
  action: ActivityAction;
  /** What it was done to: a member's name, a role, an entity title. */
  detail: Record<string, string>;
  createdAt: string;
}

/** One line of the activity record, as the Current Series card and the member panel show it. */
export function describeActivity(entry: Pick<ActivityEntry, 'userName' | 'action' | 'detail'>): string {
  const who = entry.userName;
  const d = entry.detail;
  const role = d.role ? ROLE_LABELS[d.role as SeriesRole] ?? d.role : '';
  switch (entry.action) {
    case 'series.created':
      return `${who} created the series`;
    case 'member.invited':
      return `${who} invited ${d.invitee ?? 'someone'} as ${role || 'a member'}`;
    case 'member.joined':
      return `${who} joined as ${role || 'a member'}`;
    case 'member.declined':
      return `${who} declined an invitation`;
    case 'member.roleChanged':
      return `${who} made ${d.member ?? 'a member'} ${role || 'a member'}`;
    case 'member.removed':
      return `${who} removed ${d.member ?? 'a member'}`;
    case 'member.left':
      return `${who} left the series`;
    case 'invite.revoked':
      return `${who} revoked the invitation to ${d.invitee ?? 'a link'}`;
    case 'series.transferred':
      return `${who} handed the series to ${d.member ?? 'a member'}`;
    case 'content.changed':
      return `${who} ${d.verb ?? 'changed'} ${d.title ? `"${d.title}"` : 'the series'}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Presence: who else is in a chapter now

/**
 * An open chapter editor announces itself on entering (and says goodbye on leaving); the
 * heartbeat is only a keep-alive for a tab that vanished without a word, whose stream did not close…
 */
export const PRESENCE_HEARTBEAT_MS = 15_000;
/** …and is forgotten this long after its last report. */
export const PRESENCE_TTL_MS = 45_000;

export interface PresentAuthor {
  userId: string;
  displayName: string;
}

/**
 * Named events on the sync stream (GET /api/sync/events) that are not commits: `presence` — who is
 * in a chapter now, sent to the series' owner and members whenever that changes; `invites` — the
 * author's pending invites changed (sent, refreshed, revoked): read them again.
 */
export const LIVE_EVENTS = ['presence', 'invites'] as const;
export type LiveEventName = (typeof LIVE_EVENTS)[number];

export interface PresenceEventData {
  chapterId: string;
  /** Everyone in the chapter now, the receiver included if they are there. */
  present: PresentAuthor[];
}
