/**
 * Writing progress API (spec 000 §7; docs/server.md#writing-statistics): statistics per
 * day/week/month, the achievements catalogue of the caller's plan, earned achievements, the
 * explicit check, and the author's writing settings. Every answer is the caller's own: no id of
 * another author is ever taken.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ERROR_CODES,
  MAX_STATS_RANGE_DAYS,
  addDays,
  aggregateStats,
  compactActivity,
  daysBetween,
  gateState,
  updateWritingSettingsBodySchema,
  writingDay,
  writingStatsQuerySchema,
} from '@chronicler/schema';
import { requireUser } from '../http/caller.ts';
import { HttpError } from '../http/errors.ts';
import { ok, write } from '../routes/kit.ts';
import { listenToStoryWrites } from '../sync/story-writes.ts';
import { catalogueFor, dueAchievements, earnedRows, evaluateAchievements, withAchievements } from './achievements.ts';
import { progressListener } from './story-writes.ts';
import { countedSaves, dailyStats, saveSettings, settingsOf, timeZoneOf } from './writing.ts';

/** Without `from`, a stats query covers the last year up to `to`. */
const DEFAULT_RANGE_DAYS = 366;

export default async function progressPlugin(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  // Chapter saves, creates and completed books, heard inside their writes (story-writes.ts).
  listenToStoryWrites('progress', progressListener);

  app.get('/api/writing-stats', { schema: { querystring: writingStatsQuerySchema } }, async (request) => {
    const user = requireUser(request);
    const settings = await settingsOf(db, user.id);
    const to = request.query.to ?? writingDay(new Date(), await timeZoneOf(db, user.id), settings.dayEndHour);
    const from = request.query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
    const span = daysBetween(from, to);
    if (Number.isNaN(span) || span < 0) throw new HttpError(422, ERROR_CODES.validation, '`from` must not be after `to`', { from: '`from` must not be after `to`' });
    if (span >= MAX_STATS_RANGE_DAYS) {
      const message = `A query covers at most ${MAX_STATS_RANGE_DAYS} days`;
      throw new HttpError(422, ERROR_CODES.validation, message, { from: message });
    }
    return aggregateStats(await dailyStats(db, user.id, from, to), request.query.period);
  });

  /**
   * The caller's counted saves, folded into minutes per chapter, for the analytics page, which
   * computes on the device (docs/decisions/0019-analytics-charts.md). A plan without `analytics`
   * is refused, as the page shows it locked.
   */
  app.get('/api/writing-activity', async (request) => {
    const user = requireUser(request);
    const gate = gateState({ plan: user.plan, feature: 'analytics' });
    if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
    return compactActivity(await countedSaves(db, user.id));
  });

  app.get('/api/achievements', async (request) => catalogueFor(requireUser(request).plan));

  app.get('/api/user-achievements', async (request) => withAchievements(await earnedRows(db, requireUser(request).id)));

  /**
   * The achievements this call earned (000 §7); an empty array when none. Nothing due (the usual
   * answer) is found by a read: no write transaction is taken for it.
   */
  app.post('/api/check-achievements', async (request, reply) => {
    const user = requireUser(request);
    if ((await dueAchievements(db, user.id, new Date())).length === 0) return reply.status(200).send([]);
    return write(request, reply, async (ctx) => ok(await evaluateAchievements(ctx)));
  });

  app.get('/api/writing-settings', async (request) => settingsOf(db, requireUser(request).id));

  /** The daily goal is a Wordsmith feature (the plan table's writingChallenges); the rest is everyone's. */
  app.put('/api/writing-settings', { schema: { body: updateWritingSettingsBodySchema } }, async (request, reply) => {
    const user = requireUser(request);
    if (request.body.dailyGoal !== undefined && request.body.dailyGoal !== null) {
      const gate = gateState({ plan: user.plan, feature: 'writingChallenges' });
      if (gate.locked) throw new HttpError(403, ERROR_CODES.featureLocked, gate.message);
    }
    return write(request, reply, async (ctx) => ok(await saveSettings(ctx, request.body)));
  });
}
