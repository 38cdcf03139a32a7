/**
 * The editor's toolbar. On a large screen one row: Back, the screen title (hidden where the row needs
 * the room), Italic and Bold, who else is here, the save state, History, restructuring, Export, focus
 * mode (icons with tooltips), Auto-save and Save. On a phone (below the `sm` breakpoint) one compact row — Back, the save
 * state, Save and a menu with the chapter status (the side panel's selector is not shown there),
 * History and Auto-save — so the writing starts near the top of the screen.
 */
import { type ReactNode, type Ref, useState } from 'react';
import { ActionIcon, Badge, Button, Divider, Group, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconArrowsMaximize, IconCheck, IconCloudOff, IconDeviceFloppy, IconDotsVertical, IconHistory } from '@tabler/icons-react';
import { DeferredTooltip, Popover } from '@/lib/first-load';
import type { ChapterEditorController } from '../hooks/useChapterEditor';
import { type ChapterStatus, STATUS_OPTIONS } from '../model/constants';
import { EmphasisButtons } from './EmphasisButtons';
import { LastSaved } from './LastSaved';
import classes from '../editor.module.css';

export const PHONE_QUERY = '(max-width: 47.99em)';

export interface EditorToolbarProps {
  controller: ChapterEditorController;
  /** The chapter is open for writing (not loading, missing or failed). */
  ready: boolean;
  dirty: boolean;
  online: boolean;
  /** Read-only: a draft is on offer until the author chooses, or the author's role cannot edit. */
  offering: boolean;
  /** Who else is in this chapter now (collaboration), shown beside the save state. */
  presence?: ReactNode;
  /** More actions of the large-screen toolbar (e.g. Export), before Auto-save. */
  actions?: ReactNode;
  /** More actions at the end of the phone's options popover (restructure), given how to close it. */
  phoneActions?: (close: () => void) => ReactNode;
  onBack: () => void;
  onHistory: () => void;
  /** Enters focus mode (the editor alone, full screen). */
  onFocusMode: () => void;
  /** The toolbar's element: it stays at the top of the window, and the editor keeps the caret below it. */
  rootRef?: Ref<HTMLDivElement>;
}

function OfflineBadge({ compact }: { compact: boolean }) {
  return (
    <DeferredTooltip label="Your words are kept on this device and sync when you are back online">
      <Badge variant="light" color="gray" leftSection={<IconCloudOff size={12} aria-hidden />} data-testid="offline-badge">
        {compact ? <VisuallyHidden>Offline</VisuallyHidden> : 'Offline'}
      </Badge>
    </DeferredTooltip>
  );
}

/** A plain action of the phone's chapter options. */
function OptionButton({ icon, onClick, children }: { icon: ReactNode; onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="subtle" color="gray" justify="flex-start" size="sm" leftSection={icon} onClick={onClick}>
      {children}
    </Button>
  );
}

export function EditorToolbar({ controller, ready, dirty, online, offering, presence = null, actions = null, phoneActions, onBack, onHistory, onFocusMode, rootRef }: EditorToolbarProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [menuOpen, setMenuOpen] = useState(false);
  const closeAnd = (action: () => void) => () => {
    setMenuOpen(false);
    action();
  };
  const saveLabel = controller.saving ? 'Saving...' : 'Save';
  const saveDisabled = !dirty || controller.saving || offering;

  if (phone) {
    return (
      <div ref={rootRef} className={classes.toolbar} data-compact="true" data-testid="editor-toolbar">
        <Title order={1}>
          <VisuallyHidden>Chapter Editor</VisuallyHidden>
        </Title>
        <Group gap={6} wrap="nowrap" miw={0} style={{ flex: 1 }}>
          <ActionIcon variant="subtle" size="lg" onClick={onBack} aria-label="Back">
            <IconArrowLeft size={18} aria-hidden />
          </ActionIcon>
          {ready && !online ? <OfflineBadge compact /> : null}
          {ready ? presence : null}
          {ready ? <LastSaved controller={controller} compact /> : null}
        </Group>
        {ready ? (
          <Group gap={6} wrap="nowrap">
            <EmphasisButtons controller={controller} disabled={offering} />
            <Button size="sm" px="sm" leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => void controller.save()} disabled={saveDisabled}>
              {saveLabel}
            </Button>
            {/* A popover of plain buttons rather than a Mantine Menu: its role="menu" dropdown fails axe's
                required-children rule. The current status is a pressed toggle. */}
            <Popover position="bottom-end" withinPortal opened={menuOpen} onChange={setMenuOpen} trapFocus returnFocus shadow="md">
              <Popover.Target>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label="Chapter options"
                  aria-expanded={menuOpen}
                  data-testid="editor-menu"
                  onClick={() => setMenuOpen((o) => !o)}
                >
                  <IconDotsVertical size={18} aria-hidden />
                </ActionIcon>
              </Popover.Target>
              <Popover.Dropdown p={4} aria-label="Chapter options">
                <Stack gap={2}>
                  <Text size="xs" c="dimmed" fw={600} px="xs" pt={4}>
                    Status
                  </Text>
                  {STATUS_OPTIONS.map((option) => {
                    const current = controller.status === option.value;
                    return (
                      <Button
                        key={option.value}
                        variant={current ? 'light' : 'subtle'}
                        color={current ? undefined : 'gray'}
                        justify="flex-start"
                        size="sm"
                        aria-pressed={current}
                        disabled={offering}
                        leftSection={current ? <IconCheck size={14} aria-hidden /> : <span style={{ width: 14 }} />}
                        onClick={() => {
                          controller.setStatus(option.value as ChapterStatus);
                          setMenuOpen(false);
                        }}
                      >
                        {option.label}
                      </Button>
                    );
                  })}
                  <Divider my={2} />
                  <OptionButton icon={<IconHistory size={14} aria-hidden />} onClick={closeAnd(onHistory)}>
                    History
                  </OptionButton>
                  <OptionButton icon={<IconArrowsMaximize size={14} aria-hidden />} onClick={closeAnd(onFocusMode)}>
                    Focus mode
                  </OptionButton>
                  <Switch
                    px="xs"
                    py={6}
                    label="Auto-save"
                    checked={controller.autoSave}
                    onChange={(e) => controller.setAutoSave(e.currentTarget.checked)}
                  />
                  {phoneActions?.(() => setMenuOpen(false))}
                </Stack>
              </Popover.Dropdown>
            </Popover>
          </Group>
        ) : null}
      </div>
    );
  }

  return (
    <div ref={rootRef} className={classes.toolbar} data-testid="editor-toolbar">
      <Group gap="sm" wrap="nowrap">
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack} px="xs">
          Back
        </Button>
        {/* Hidden (still the page's heading) where the controls need the room: classes.toolbarTitle. */}
        <Title order={1} size="h6" c="dimmed" tt="uppercase" lts="0.06em" className={classes.toolbarTitle}>
          Chapter Editor
        </Title>
      </Group>
      {ready ? (
        <Group gap="sm" wrap="wrap" justify="flex-end">
          <Group gap={4} wrap="nowrap" role="group" aria-label="Emphasis">
            <EmphasisButtons controller={controller} disabled={offering} />
          </Group>
          {!online ? <OfflineBadge compact={false} /> : null}
          {presence}
          <LastSaved controller={controller} />
          <DeferredTooltip label="History">
            <ActionIcon variant="default" size="lg" aria-label="History" onClick={onHistory}>
              <IconHistory size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          {actions}
          <DeferredTooltip label="Focus mode (Ctrl+Shift+F)">
            <ActionIcon variant="default" size="lg" aria-label="Focus mode" aria-keyshortcuts="Control+Shift+F" onClick={onFocusMode} data-testid="focus-mode">
              <IconArrowsMaximize size={18} aria-hidden />
            </ActionIcon>
          </DeferredTooltip>
          <Switch label="Auto-save" checked={controller.autoSave} onChange={(e) => controller.setAutoSave(e.currentTarget.checked)} />
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => void controller.save()} disabled={saveDisabled}>
            {saveLabel}
          </Button>
        </Group>
      ) : null}
    </div>
  );
}
