/**
 * Who wrote what, in names (collaboration): the members of a series by user id, fetched
 * once per series and kept for the session, so a conflict copy can say whose version it is. The
 * signed-in author is "You"; offline, or before the list arrives, others are "a co-author".
 */
import { useEffect, useState } from 'react';
import type { MembersResponse } from '@chronicler/schema';
import { api } from './api';
import { useSession } from './session';

const cache = new Map<string, Promise<Map<string, string>>>();

function membersOf(seriesId: string): Promise<Map<string, string>> {
  let names = cache.get(seriesId);
  if (!names) {
    names = api
      .get<MembersResponse>(`/api/collaboration/series/${encodeURIComponent(seriesId)}/members`)
      .then((r) => new Map(r.members.map((m) => [m.userId, m.displayName])));
    // A failure (offline) is not remembered: the next screen asks again.
    names.catch(() => cache.delete(seriesId));
    cache.set(seriesId, names);
  }
  return names;
}

export const CO_AUTHOR = 'a co-author';

/** A function naming the author of `userId` in `seriesId`: 'You', their display name, or 'a co-author'. */
export function useAuthorNames(seriesId: string | null | undefined): (userId: string | null | undefined) => string {
  const me = useSession((s) => s.user?.id ?? null);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (!seriesId) return;
    let live = true;
    membersOf(seriesId).then(
      (found) => live && setNames(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [seriesId]);
  return (userId) => (userId && userId === me ? 'You' : (userId && names.get(userId)) || CO_AUTHOR);
}
