/**
 * The request bodies of /api/collaboration/… (spec 001 §5, §7) as zod schemas, apart from the roles
 * and rules (collaboration.ts) that the signed-in shell reads on its first screen (issue 16).
 */
import './zod-browser.ts';
import { z } from 'zod';
import { DEFAULT_INVITE_ROLE, INVITE_ROLES } from './collaboration.ts';
import { LIMITS } from './entity-constants.ts';
import { MESSAGES, MINIMUMS } from './messages.ts';

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
