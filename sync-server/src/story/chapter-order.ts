/**
 * A book's chapter order (docs/architecture.md): its live chapters keep positions 1..n — trashed
 * ones included, so a restore puts a chapter back in its place
 * (docs/decisions/0014-trash-and-restructure.md).
 */
import { renumbered } from '@chronicler/schema';
import { listLive } from '../entities/queries.ts';
import type { WireRow } from '../entities/wire.ts';
import { type WriteContext, updateRow } from '../entities/writes.ts';

type Chapter = WireRow<'chapters'>;

/** The book's live chapters in list order. */
export const chaptersOf = (ctx: WriteContext, bookId: string) => listLive(ctx.trx, 'chapters', 'bookId', bookId, ['position', 'createdAt', 'id']);

/** Gives `ordered` positions 1..n (the shared rule), writing only the chapters whose position changes. Answers them renumbered. */
export async function renumber(ctx: WriteContext, ordered: readonly Chapter[]): Promise<Chapter[]> {
  const out: Chapter[] = [];
  for (const { row, position, changed } of renumbered(ordered)) {
    out.push(changed ? await updateRow(ctx, 'chapters', row.id, { position }, row) : row);
  }
  return out;
}
