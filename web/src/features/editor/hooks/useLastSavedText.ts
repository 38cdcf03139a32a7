import { useEffect, useState } from 'react';
import { lastSavedText } from '@chronicler/schema';
import { LAST_SAVED_REFRESH_MS } from '../model/constants';

/** 'Never saved', 'Just now', 'N minutes ago'… refreshed every 30 s (spec 001 §2). */
export function useLastSavedText(savedAt: Date | null): string {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), LAST_SAVED_REFRESH_MS);
    return () => clearInterval(timer);
  }, [savedAt]);
  return lastSavedText(savedAt, now);
}
