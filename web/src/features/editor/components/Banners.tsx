import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowsDiff, IconCloudDown, IconFileAlert, IconTrash } from '@tabler/icons-react';
import type { ChapterConflict } from '@chronicler/schema';
import { useAuthorNames } from '@/lib/useAuthorNames';
import { RESTRUCTURE_COPY, useRestructure, withUndoToast } from '@/lib/restructure';
import type { OfferedDraft } from '../hooks/editor-store';

function when(ms: number | string): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'earlier' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A draft of this chapter that was never saved: restore it or throw it away. */
export function DraftBanner({ offer, onRestore, onDiscard }: { offer: OfferedDraft; onRestore: () => void; onDiscard: () => void }) {
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconFileAlert size={20} aria-hidden />}
      title="Unsaved draft found"
      role="alert"
      data-testid="draft-banner"
    >
      <Stack gap="xs">
        <Text size="sm">
          You were writing this chapter on {when(offer.draft.updatedAt)} and those words were never saved.
          {offer.olderThanSaved ? ' The saved chapter has changed since then, so compare before you restore.' : ''}
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={onRestore} data-autofocus>
            Restore draft
          </Button>
          <Button size="xs" variant="default" onClick={onDiscard}>
            Discard draft
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Unresolved conflict copies of this chapter. */
const possessive = (name: string) => (name === 'You' ? 'your' : `${name}'s`);

/** "you from Firefox on Android", "Mara from Safari on iPhone", "you from another device". */
function savedBy(name: string, device: string | null): string {
  const who = name === 'You' ? 'you' : name;
  if (device) return `${who} from ${device}`;
  return name === 'You' ? 'you from another device' : who;
}

export function ConflictBanner({ conflicts, onCompare }: { conflicts: ChapterConflict[]; onCompare: (c: ChapterConflict) => void }) {
  const many = conflicts.length > 1;
  // Who wrote the other version (co-authors of a shared series; "You" from another device).
  const nameOf = useAuthorNames(conflicts[0]?.seriesId);
  // Named with the device the save came from: "you" alone read as a bug when it was the author's phone.
  const writers = [...new Set(conflicts.map((c) => savedBy(nameOf(c.authorId), c.device)))];
  return (
    <Alert
      variant="light"
      color="orange"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      title={many ? `${conflicts.length} conflicting versions of this chapter` : 'A conflicting version of this chapter'}
      data-testid="conflict-banner"
    >
      <Stack gap="xs">
        <Text size="sm">
          A save by {writers.join(', ')} changed the same passage and could not be merged automatically. Nothing has been
          lost: compare the versions and choose what to keep.
        </Text>
        <Group gap="xs">
          {conflicts.map((conflict, i) => (
            <Button
              key={conflict.id}
              size="xs"
              variant={i === 0 ? 'filled' : 'light'}
              color="orange"
              leftSection={<IconArrowsDiff size={14} aria-hidden />}
              onClick={() => onCompare(conflict)}
            >
              {many ? `Compare ${possessive(nameOf(conflict.authorId))} version from ${when(conflict.createdAt)}` : 'Compare versions'}
            </Button>
          ))}
        </Group>
      </Stack>
    </Alert>
  );
}

/** The chapter was saved elsewhere while the author typed here. */
export function ElsewhereBanner({ onCompare }: { onCompare: () => void }) {
  return (
    <Alert variant="light" color="blue" icon={<IconCloudDown size={20} aria-hidden />} title="Saved elsewhere while you were writing">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">Your changes are merged with it when you save. If you both changed the same passage, you choose.</Text>
        <Button size="xs" variant="light" onClick={onCompare}>
          Compare
        </Button>
      </Group>
    </Alert>
  );
}

export function DeletedBanner() {
  return (
    <Alert variant="light" color="red" icon={<IconTrash size={20} aria-hidden />} title="This chapter was deleted elsewhere">
      It was deleted on another device or by a collaborator. Your text stays here; if you save it, it is kept as a conflict copy.
    </Alert>
  );
}

/** The chapter is in its series' Trash (docs/decisions/0014-trash-and-restructure.md): readable, restorable. */
export function TrashedBanner({ chapterId, disabled }: { chapterId: string; disabled: boolean }) {
  const restructure = useRestructure();
  const onRestore = () => void withUndoToast(() => restructure.restoreChapter(chapterId), RESTRUCTURE_COPY.chapterRestored);
  return (
    <Alert variant="light" color="orange" icon={<IconTrash size={20} aria-hidden />} title="This chapter is in the Trash">
      <Group justify="space-between" gap="sm">
        <span>It is left out of its book until you restore it, and deleted for good 30 days after it was deleted.</span>
        <Button size="xs" variant="light" onClick={onRestore} disabled={disabled}>
          Restore
        </Button>
      </Group>
    </Alert>
  );
}
