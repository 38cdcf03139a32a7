/**
 * The editor's toolbar. On a large screen: Back, the screen title, the save state, History,
 * Auto-save and Save. On a phone (below the `sm` breakpoint) one compact row — Back, the save
 * state, Save and a menu with the chapter status (the side panel's selector is not shown there),
 * History and Auto-save — so the writing starts near the top of the screen (issue 15).
 */
import { ActionIcon, Badge, Button, Group, Menu, Switch, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconCheck, IconCloudOff, IconDeviceFloppy, IconDotsVertical, IconHistory } from '@tabler/icons-react';
import type { ChapterEditorController } from '../hooks/useChapterEditor';
import { type ChapterStatus, STATUS_OPTIONS } from '../model/constants';
import { LastSaved } from './LastSaved';
import classes from '../editor.module.css';

export const PHONE_QUERY = '(max-width: 47.99em)';

export interface EditorToolbarProps {
  controller: ChapterEditorController;
  /** The chapter is open for writing (not loading, missing or failed). */
  ready: boolean;
  dirty: boolean;
  online: boolean;
  /** A draft is on offer: the editor is read-only until the author chooses. */
  offering: boolean;
  onBack: () => void;
  onHistory: () => void;
}

function OfflineBadge({ compact }: { compact: boolean }) {
  return (
    <Tooltip label="Your words are kept on this device and sync when you are back online">
      <Badge variant="light" color="gray" leftSection={<IconCloudOff size={12} aria-hidden />} data-testid="offline-badge">
        {compact ? <VisuallyHidden>Offline</VisuallyHidden> : 'Offline'}
      </Badge>
    </Tooltip>
  );
}

export function EditorToolbar({ controller, ready, dirty, online, offering, onBack, onHistory }: EditorToolbarProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const saveLabel = controller.saving ? 'Saving...' : 'Save';
  const saveDisabled = !dirty || controller.saving || offering;

  if (phone) {
    return (
      <div className={classes.toolbar} data-compact="true" data-testid="editor-toolbar">
        <Title order={1}>
          <VisuallyHidden>Chapter Editor</VisuallyHidden>
        </Title>
        <Group gap={6} wrap="nowrap" miw={0} style={{ flex: 1 }}>
          <ActionIcon variant="subtle" size="lg" onClick={onBack} aria-label="Back">
            <IconArrowLeft size={18} aria-hidden />
          </ActionIcon>
          {ready && !online ? <OfflineBadge compact /> : null}
          {ready ? <LastSaved controller={controller} compact /> : null}
        </Group>
        {ready ? (
          <Group gap={6} wrap="nowrap">
            <Button size="sm" px="sm" leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => void controller.save()} disabled={saveDisabled}>
              {saveLabel}
            </Button>
            {/* No focus trap: its sentinel inside role="menu" breaks the menu's required children (axe). Arrow keys and Escape still work. */}
            <Menu position="bottom-end" withinPortal closeOnItemClick trapFocus={false}>
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label="Chapter options" data-testid="editor-menu">
                  <IconDotsVertical size={18} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {STATUS_OPTIONS.map((option) => {
                  const current = controller.status === option.value;
                  return (
                    // Mantine's items are always role="menuitem": the current status is said in words.
                    <Menu.Item
                      key={option.value}
                      disabled={offering}
                      data-current={current || undefined}
                      leftSection={current ? <IconCheck size={14} aria-hidden /> : <span style={{ width: 14 }} />}
                      onClick={() => controller.setStatus(option.value as ChapterStatus)}
                    >
                      Status: {option.label}
                      {current ? <VisuallyHidden> (current)</VisuallyHidden> : null}
                    </Menu.Item>
                  );
                })}
                <Menu.Divider />
                <Menu.Item leftSection={<IconHistory size={14} aria-hidden />} onClick={onHistory}>
                  History
                </Menu.Item>
                <Menu.Item
                  leftSection={controller.autoSave ? <IconCheck size={14} aria-hidden /> : <span style={{ width: 14 }} />}
                  onClick={() => controller.setAutoSave(!controller.autoSave)}
                >
                  {controller.autoSave ? 'Turn auto-save off' : 'Turn auto-save on'}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        ) : null}
      </div>
    );
  }

  return (
    <div className={classes.toolbar} data-testid="editor-toolbar">
      <Group gap="sm" wrap="nowrap">
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack} px="xs">
          Back
        </Button>
        <Title order={1} size="h6" c="dimmed" tt="uppercase" lts="0.06em">
          Chapter Editor
        </Title>
      </Group>
      {ready ? (
        <Group gap="sm" wrap="wrap" justify="flex-end">
          {!online ? <OfflineBadge compact={false} /> : null}
          <LastSaved controller={controller} />
          <Button variant="default" size="sm" leftSection={<IconHistory size={16} aria-hidden />} onClick={onHistory}>
            History
          </Button>
          <Switch label="Auto-save" checked={controller.autoSave} onChange={(e) => controller.setAutoSave(e.currentTarget.checked)} />
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={() => void controller.save()} disabled={saveDisabled}>
            {saveLabel}
          </Button>
        </Group>
      ) : null}
    </div>
  );
}
