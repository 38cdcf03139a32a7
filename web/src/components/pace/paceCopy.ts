/** How a pace projection reads (docs/decisions/0018-pace-predictions.md): one wording for the book, the dashboard and the series. */
import type { PaceProjection } from '@chronicler/schema';
import { okToast, failToast, type ToastContent } from '@/lib/copy/toast-core';

const words = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'word' : 'words'}`;

/** A day key as the author reads it: "Mon 1 Mar 2027" (the key's own calendar day, never shifted by a zone). */
export function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export const WEEKDAY_LABELS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export interface StatusCopy {
  label: string;
  color: string;
}

export function statusCopy(p: PaceProjection): StatusCopy {
  switch (p.status) {
    case 'reached':
      return { label: 'Target reached', color: 'teal' };
    case 'on-track':
      return { label: 'On track', color: 'green' };
    case 'behind':
      return { label: `Behind by ${words(p.behindBy)}`, color: 'orange' };
    case 'deadline-passed':
      return { label: 'Deadline passed', color: 'red' };
    case 'no-pace':
      return { label: 'No recent writing', color: 'gray' };
    case 'no-deadline':
      return { label: 'No deadline', color: 'blue' };
  }
}

export function finishCopy(p: PaceProjection): string {
  if (p.status === 'reached') return 'Reached';
  if (p.status === 'no-pace') return 'Write on a few days to see a projection';
  return p.projectedFinish ? dayLabel(p.projectedFinish) : 'More than ten years away';
}

export function neededCopy(p: PaceProjection): string {
  if (p.status === 'reached') return '—';
  if (p.deadline === null) return 'No deadline';
  if (p.neededPerWritingDay === null) return 'No writing days left';
  return words(p.neededPerWritingDay);
}

export { words as wordsCopy };

export const GOAL_TOASTS: { saved: ToastContent; cleared: ToastContent; failed: ToastContent } = {
  saved: okToast('Goal saved', 'The projection uses your writing of the last 14 days.'),
  cleared: okToast('Goal removed'),
  failed: failToast('Error saving the goal', 'An unexpected error occurred'),
};
