/**
 * Revision history (docs/sync-protocol.md#chapter-text-merge: every save keeps a revision the
 * author can browse and restore). The list and the texts come from the server, so this works online
 * only.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, EmptyState, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCloudOff, IconHistory, IconRestore } from '@tabler/icons-react';
import { Drawer } from '@/lib/first-load';
import { isNetworkError, serverMessageOf } from '@/lib/api';
import { type RevisionSnapshot, fetchRevision, useRevisions } from '../hooks/useRevisions';
import { formatCount } from '../model/constants';
import { DiffView } from './DiffView';
import classes from '../editor.module.css';

export interface RevisionDrawerProps {
  opened: boolean;
  onClose: () => void;
  chapterId: string | null;
  online: boolean;
  /** The chapter's server revision as last heard here: the list reloads when it moves. */
  savedRev?: number;
  /** The editor's current text (read when a revision is chosen). */
  getCurrentText: () => string;
  onRestore: (snapshot: RevisionSnapshot) => Promise<boolean>;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

type Chosen =
  | { rev: number; status: 'loading' }
  | { rev: number; status: 'error'; message: string }
  | { rev: number; status: 'ready'; snapshot: RevisionSnapshot; current: string };

function OfflineState() {
  return (
    <EmptyState
      variant="light"
      icon={<IconCloudOff size={26} stroke={1.5} />}
      title="Available when online"
      description="Earlier saves are kept on the server. Connect to the internet to browse and restore them; your writing here keeps saving on this device."
      data-testid="revisions-offline"
    />
  );
}

export function RevisionDrawer({ opened, onClose, chapterId, online, savedRev, getCurrentText, onRestore }: RevisionDrawerProps) {
  const { state, reload } = useRevisions(chapterId, opened, online, savedRev);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [restoring, setRestoring] = useState(false);

  useEffect(() => {
    if (!opened) setChosen(null);
  }, [opened]);

  const choose = async (rev: number) => {
    if (!chapterId) return;
    setChosen({ rev, status: 'loading' });
    try {
      const snapshot = await fetchRevision(chapterId, rev);
      setChosen({ rev, status: 'ready', snapshot, current: getCurrentText() });
    } catch (error) {
      setChosen({
        rev,
        status: 'error',
        message: isNetworkError(error) ? 'You are offline. This revision is available when online.' : serverMessageOf(error, 'This revision could not be loaded.'),
      });
    }
  };

  const restore = async () => {
    if (chosen?.status !== 'ready') return;
    setRestoring(true);
    const ok = await onRestore(chosen.snapshot);
    setRestoring(false);
    if (ok) {
      setChosen(null);
      reload();
    }
  };

  let body;
  if (!chapterId) {
    body = <Text c="dimmed">Save the chapter to start its history. Every save keeps a revision you can come back to.</Text>;
  } else if (!online || state.status === 'offline') {
    body = <OfflineState />;
  } else if (state.status === 'loading' || state.status === 'idle') {
    body = (
      <Group justify="center" py="xl">
        <Loader type="dots" aria-label="Loading revisions" />
      </Group>
    );
  } else if (state.status === 'error') {
    body = (
      <Alert color="red" variant="light" title="The revision history could not be loaded">
        <Text size="sm">{state.message}</Text>
        <Button mt="xs" size="xs" variant="light" color="red" onClick={reload}>
          Try again
        </Button>
      </Alert>
    );
  } else if (state.status !== 'ready') {
    body = <OfflineState />;
  } else if (state.revisions.length === 0) {
    body = <Text c="dimmed">No saves yet. Every save keeps a revision here.</Text>;
  } else {
    body = (
      <Stack gap="md">
        <Stack gap={2} component="ol" aria-label="Earlier saves" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {state.revisions.map((revision, i) => (
            <li key={revision.rev}>
              <UnstyledButton
                className={classes.revisionButton}
                aria-current={chosen?.rev === revision.rev ? 'true' : undefined}
                onClick={() => void choose(revision.rev)}
                data-testid="revision-item"
              >
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {formatDate(revision.createdAt)}
                    {i === 0 ? (
                      <Text span size="xs" c="dimmed" fw={400}>
                        {' '}
                        · latest
                      </Text>
                    ) : null}
                  </Text>
                  <Text size="sm" c="dimmed" className={classes.countValue}>
                    {formatCount(revision.wordCount)} words
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {revision.title}
                </Text>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
        {chosen?.status === 'loading' ? <Loader size="sm" type="dots" aria-label="Loading the revision" /> : null}
        {chosen?.status === 'error' ? (
          <Alert color="red" variant="light">
            {chosen.message}
          </Alert>
        ) : null}
        {chosen?.status === 'ready' ? (
          <Stack gap="sm" data-testid="revision-diff">
            <Group justify="space-between" wrap="wrap">
              <Text fw={600}>Compared with your current text</Text>
              <Button leftSection={<IconRestore size={16} aria-hidden />} onClick={() => void restore()} loading={restoring}>
                Restore this version
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              Restoring saves your current text first, so it stays in the history too.
            </Text>
            <DiffView left={chosen.current} right={chosen.snapshot.content} leftLabel="Current text" rightLabel="This revision" />
          </Stack>
        ) : null}
      </Stack>
    );
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      closeButtonProps={{ 'aria-label': 'Close revision history' }}
      size="min(56rem, 100%)"
      title={
        <Group gap="xs">
          <IconHistory size={18} aria-hidden />
          <Text fw={700}>Revision history</Text>
        </Group>
      }
    >
      {body}
    </Drawer>
  );
}
