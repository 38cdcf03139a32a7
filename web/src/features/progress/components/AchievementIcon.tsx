import { IconBook, IconFileText, IconFlame, IconMapPin, IconPencil, IconTrophy, IconUsers } from '@tabler/icons-react';
import type { Achievement } from '@chronicler/schema';

const ICONS = { flame: IconFlame, pencil: IconPencil, 'file-text': IconFileText, users: IconUsers, 'map-pin': IconMapPin, book: IconBook } as const;

/** The glyph of an achievement's `icon` name (a trophy for a name this build does not know). */
export function AchievementIcon({ achievement, size = 18 }: { achievement: Pick<Achievement, 'icon'>; size?: number }) {
  const Icon = ICONS[achievement.icon as keyof typeof ICONS] ?? IconTrophy;
  return <Icon size={size} stroke={1.6} aria-hidden />;
}
