import { ActionIcon, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { DeferredTooltip } from '@/lib/first-load';
import { layoutClasses as classes } from './layoutClasses';

const onMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/u.test(navigator.platform || navigator.userAgent);

export interface SearchButtonProps {
  onOpen: () => void;
  /** The dialog is open (aria-expanded). */
  opened?: boolean;
  /** An icon only (the collapsed sidebar, the phone's top bar). */
  compact?: boolean;
}

/** The shell's way into search (the app composes the search feature's dialog; Ctrl/Cmd+K opens it too). */
export function SearchButton({ onOpen, opened = false, compact = false }: SearchButtonProps) {
  const shortcut = onMac() ? '⌘K' : 'Ctrl+K';
  if (compact) {
    return (
      <DeferredTooltip label={`Search (${shortcut})`} position="right" withArrow>
        <ActionIcon variant="subtle" color="gray" size="lg" onClick={onOpen} aria-label="Search" aria-haspopup="dialog" aria-expanded={opened}>
          <IconSearch size={20} stroke={1.75} />
        </ActionIcon>
      </DeferredTooltip>
    );
  }
  return (
    <UnstyledButton className={classes.searchButton} onClick={onOpen} aria-haspopup="dialog" aria-expanded={opened} aria-keyshortcuts="Control+K Meta+K">
      <IconSearch size={16} stroke={1.75} aria-hidden />
      <span className={classes.searchLabel}>Search</span>
      <kbd className={classes.searchKbd} aria-hidden>
        {shortcut}
      </kbd>
    </UnstyledButton>
  );
}
