// The problems list (DeadLetterList) scrolls.
import '@mantine/core/styles/ScrollArea.layer.css';
import { useEffect, useState } from 'react';
import { Badge, Group, Loader, Popover, Stack, Text, ThemeIcon, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCloudCheck, IconCloudOff, IconCloudUpload, IconLogin } from '@tabler/icons-react';
import { useOnline } from '@/lib/useOnline';
import { useOptionalSync, useSyncStatus } from '@/lib/sync';
import { DeadLetterList } from './SyncProblemsPanel';

/*
 * The sync indicator of the layout (DESIGN.md §3 "show the count of unsynced changes"): online /
 * offline, syncing, "N unsynced changes", the last sync time, and a problems panel listing
 * changes the server refused (their text stays copyable) and storage errors. Keep the name and
 * the `compact` prop: the layout renders it in the sidebar and (compact) in the mobile top bar.
 */

/** Re-renders every `ms` so relative times stay true. */
function useTick(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}

export function relativeSyncTime(at: number | null, now: number): string {
  if (at === null) return 'Not synced yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'Synced just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `Synced ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `Synced ${hours} h ago`;
  return `Synced ${new Date(at).toLocaleDateString()}`;
}

export function unsyncedLabel(count: number): string {
  return count === 1 ? '1 unsynced change' : `${count} unsynced changes`;
}

type Tone = 'ok' | 'offline' | 'pending' | 'problem';

function useIndicatorState() {
  const browserOnline = useOnline();
  const storeOnline = useSyncStatus((s) => s.online);
  const pendingCount = useSyncStatus((s) => s.pendingCount);
  const syncing = useSyncStatus((s) => s.syncing);
  const lastSyncedAt = useSyncStatus((s) => s.lastSyncedAt);
  const deadLetters = useSyncStatus((s) => s.deadLetters);
  const lastError = useSyncStatus((s) => s.lastError);
  const authRequired = useSyncStatus((s) => s.authRequired);
  const online = browserOnline && storeOnline !== false;
  const problems = deadLetters.length + (lastError && lastError.kind !== 'network' ? 1 : 0);
  let tone: Tone = 'ok';
  if (!online) tone = 'offline';
  if (pendingCount > 0 && online) tone = 'pending';
  if (problems > 0 || authRequired) tone = 'problem';
  let label = online ? 'Online' : 'Offline';
  if (pendingCount > 0) label = unsyncedLabel(pendingCount);
  else if (syncing) label = 'Syncing';
  return { online, pendingCount, syncing, lastSyncedAt, deadLetters, lastError, authRequired, problems, tone, label };
}

const TONE_COLOR: Record<Tone, string> = { ok: 'teal', offline: 'gray', pending: 'blue', problem: 'orange' };

function ToneIcon({ tone, syncing, size }: { tone: Tone; syncing: boolean; size: number }) {
  if (syncing && tone !== 'problem') return <Loader size={size - 2} type="oval" color="currentColor" aria-hidden />;
  const Icon = tone === 'offline' ? IconCloudOff : tone === 'problem' ? IconAlertTriangle : tone === 'pending' ? IconCloudUpload : IconCloudCheck;
  return <Icon size={size} stroke={2} aria-hidden />;
}

function StatusPanel({ state }: { state: ReturnType<typeof useIndicatorState> }) {
  const sync = useOptionalSync();
  const now = useTick(30_000);
  return (
    <Stack gap="xs" maw={320}>
      <Text size="sm" fw={700}>
        {state.online ? 'Online' : 'Offline — your work is kept on this device'}
      </Text>
      <Text size="sm">{state.pendingCount > 0 ? unsyncedLabel(state.pendingCount) : 'All changes synced'}</Text>
      <Text size="xs" c="dimmed">
        {relativeSyncTime(state.lastSyncedAt, now)}
      </Text>
      {state.authRequired && (
        <Group gap="xs" wrap="nowrap">
          <IconLogin size={16} aria-hidden />
          <Text size="sm">Please sign in again to sync your changes. They are kept on this device.</Text>
        </Group>
      )}
      {state.lastError && state.lastError.kind !== 'auth' && (
        <Text size="sm" c={state.lastError.kind === 'network' ? 'dimmed' : 'orange'}>
          {state.lastError.message}
        </Text>
      )}
      <DeadLetterList deadLetters={state.deadLetters} db={sync?.db ?? null} />
    </Stack>
  );
}

export function SyncIndicator({ compact = false }: { compact?: boolean }) {
  const state = useIndicatorState();
  const color = TONE_COLOR[state.tone];
  const description = `${state.label}${state.problems > 0 ? `, ${state.problems} problem${state.problems === 1 ? '' : 's'}` : ''}`;
  const trigger = compact ? (
    <UnstyledButton aria-label={`Sync status: ${description}`} data-testid="sync-indicator" data-online={state.online} data-pending={state.pendingCount}>
      <ThemeIcon variant="light" color={color} radius="xl" size="md" component="span">
        <ToneIcon tone={state.tone} syncing={state.syncing} size={16} />
      </ThemeIcon>
    </UnstyledButton>
  ) : (
    <UnstyledButton aria-label={`Sync status: ${description}`} data-testid="sync-indicator" data-online={state.online} data-pending={state.pendingCount}>
      <Badge
        component="span"
        variant="light"
        color={color}
        radius="sm"
        size="md"
        leftSection={<ToneIcon tone={state.tone} syncing={state.syncing} size={14} />}
        styles={{ root: { textTransform: 'none', cursor: 'pointer' } }}
      >
        {state.label}
        {state.problems > 0 ? ` · ${state.problems} problem${state.problems === 1 ? '' : 's'}` : ''}
      </Badge>
    </UnstyledButton>
  );
  return (
    <>
      <VisuallyHidden role="status" aria-live="polite">
        {description}
      </VisuallyHidden>
      <Popover width={340} position={compact ? 'bottom-end' : 'right-start'} withArrow shadow="md" trapFocus>
        <Popover.Target>{trigger}</Popover.Target>
        <Popover.Dropdown>
          <StatusPanel state={state} />
        </Popover.Dropdown>
      </Popover>
    </>
  );
}
