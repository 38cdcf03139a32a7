/**
 * The problems panel: changes kept aside (dead letters: refused for good by the server, or saved
 * onto a row deleted on another device) with their text kept —
 * copy one to the clipboard, export all as JSON, dismiss — plus the current sync error (storage
 * full, sign-in needed, server busy). Reads the status store; dismissing needs the database
 * (from <SyncProvider>, or the `db` prop).
 */
import { useState } from 'react';
import { ActionIcon, Alert, Button, Code, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCopy, IconDownload, IconX } from '@tabler/icons-react';
import {
  type ChroniclerDb,
  type DeadLetter,
  type SyncStatusStore,
  deadLetterReason,
  deadLetterText,
  deadLetterTitle,
  deadLettersJson,
  dismissAllDeadLetters,
  dismissDeadLetter,
  syncStatus,
} from '@chronicler/sync-client';
import { useOptionalSync, useSyncStatus } from '@/lib/sync';

function ProblemItem({ letter, onDismiss }: { letter: DeadLetter; onDismiss: (() => void) | null }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const title = deadLetterTitle(letter);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(deadLetterText(letter));
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="dead-letter">
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={600} lineClamp={2}>
            {title}
          </Text>
          {onDismiss && (
            <ActionIcon variant="subtle" color="gray" size="sm" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
              <IconX size={14} aria-hidden />
            </ActionIcon>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {deadLetterReason(letter)}
        </Text>
        {letter.content.text ? (
          <Code block style={{ maxHeight: 96, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
            {letter.content.text.length > 600 ? `${letter.content.text.slice(0, 600)}…` : letter.content.text}
          </Code>
        ) : null}
        <Group gap="xs">
          <Button size="compact-xs" variant="light" leftSection={<IconCopy size={12} aria-hidden />} onClick={() => void copy()}>
            {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed — use Export' : 'Copy text'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Saves the dead letters as a JSON file (a download). */
export function exportDeadLetters(letters: readonly DeadLetter[]): void {
  const blob = new Blob([deadLettersJson(letters)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `chronicler-refused-changes-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The changes kept aside — refused by the server, or saved onto a row deleted on another device —
 * each with its words to copy, plus Export JSON and Dismiss all (dismissing needs `db`).
 */
export function DeadLetterList({ deadLetters, db }: { deadLetters: readonly DeadLetter[]; db: ChroniclerDb | null }) {
  if (deadLetters.length === 0) return null;
  const dismiss = (letter: DeadLetter) => (db && letter.id !== undefined ? () => void dismissDeadLetter(db, letter.id!).catch(() => undefined) : null);
  return (
    <>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={700}>
          Changes kept aside ({deadLetters.length})
        </Text>
        <Group gap={4}>
          <Button size="compact-xs" variant="subtle" leftSection={<IconDownload size={12} aria-hidden />} onClick={() => exportDeadLetters(deadLetters)}>
            Export JSON
          </Button>
          {db && (
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => void dismissAllDeadLetters(db).catch(() => undefined)}>
              Dismiss all
            </Button>
          )}
        </Group>
      </Group>
      <ScrollArea.Autosize mah={320} type="auto">
        <Stack gap="xs">
          {deadLetters.map((letter, i) => (
            <ProblemItem key={letter.id ?? i} letter={letter} onDismiss={dismiss(letter)} />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </>
  );
}

export interface SyncProblemsPanelProps {
  /** Where to dismiss; the provider's database by default. */
  db?: ChroniclerDb;
  store?: SyncStatusStore;
}

export function SyncProblemsPanel({ db, store = syncStatus }: SyncProblemsPanelProps) {
  const sync = useOptionalSync();
  const database = db ?? sync?.db ?? null;
  const deadLetters = useSyncStatus((s) => s.deadLetters, store);
  const lastError = useSyncStatus((s) => s.lastError, store);
  const authRequired = useSyncStatus((s) => s.authRequired, store);

  if (deadLetters.length === 0 && !lastError && !authRequired) {
    return (
      <Text size="sm" c="dimmed">
        No sync problems.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {authRequired && (
        <Alert color="orange" variant="light" p="xs" icon={<IconAlertTriangle size={16} aria-hidden />}>
          Please sign in again to sync your changes. They are kept on this device.
        </Alert>
      )}
      {lastError && lastError.kind !== 'auth' && lastError.kind !== 'rejected' && (
        <Alert color={lastError.kind === 'quota' || lastError.kind === 'storage' ? 'red' : 'gray'} variant="light" p="xs" role="alert">
          {lastError.message}
        </Alert>
      )}
      <DeadLetterList deadLetters={deadLetters} db={database} />
    </Stack>
  );
}
