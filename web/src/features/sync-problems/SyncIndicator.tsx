import { lazy, memo, useDeferredValue } from 'react';
import { Badge, Loader, ThemeIcon, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCloudCheck, IconCloudOff, IconCloudUpload } from '@tabler/icons-react';
import { DeferredPopover } from '@/lib/first-load';
import { type IndicatorState, type Tone, relativeSyncTime, unsyncedLabel, useIndicatorState } from './syncIndicatorState';

// The status panel (a Popover, Floating UI and the problems list) is downloaded and mounted when
// first opened: mounted closed in the shell's first commit, each indicator's Popover re-rendered
// synchronously there (docs/web.md#first-load).
const SyncStatusPopover = lazy(() => import('./SyncStatusPopover'));

/*
 * The sync indicator of the layout (docs/sync-protocol.md#durability-on-the-device): online /
 * offline, syncing, "N unsynced changes", the last sync time, and a problems panel listing
 * changes the server refused (their text stays copyable) and storage errors. Keep the name and
 * the `compact` prop: the layout renders it in the sidebar and (compact) in the mobile top bar.
 */

const TONE_COLOR: Record<Tone, string> = { ok: 'teal', offline: 'gray', pending: 'blue', problem: 'orange' };

function ToneIcon({ tone, syncing, size }: { tone: Tone; syncing: boolean; size: number }) {
  if (syncing && tone !== 'problem') return <Loader size={size - 2} type="oval" color="currentColor" aria-hidden />;
  const Icon = tone === 'offline' ? IconCloudOff : tone === 'problem' ? IconAlertTriangle : tone === 'pending' ? IconCloudUpload : IconCloudCheck;
  return <Icon size={size} stroke={2} aria-hidden />;
}

export function SyncIndicator({ compact = false }: { compact?: boolean }) {
  // The sync status changes many times while syncing (each pull and push, the spinner on and off:
  // ~10 times during a first pull), and its store (useSyncExternalStore) made each a synchronous
  // render of both indicators; the indicator is redrawn with the deferred state instead, as a
  // transition, the latest state once (docs/web.md#first-load).
  const state = useDeferredValue(useIndicatorState());
  return <IndicatorView state={state} compact={compact} />;
}

const IndicatorView = memo(function IndicatorView({ state, compact }: { state: IndicatorState; compact: boolean }) {
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
      <DeferredPopover popup="dialog" trigger={trigger}>
        {(layer) => <SyncStatusPopover {...layer} position={compact ? 'bottom-end' : 'right-start'} state={state} />}
      </DeferredPopover>
    </>
  );
});

export { relativeSyncTime, unsyncedLabel };
