import { lazy } from 'react';
import { ActionIcon, type FloatingPosition } from '@mantine/core';
import { IconPalette } from '@tabler/icons-react';
import { DeferredPopover, DeferredTooltip } from '@/lib/first-load';
import { ALL_THEME_LABELS } from './all-themes';
import { useThemeStore } from './theme-store';
import { useThemePack } from './useThemePack';

// The menu (Mantine's Menu and Floating UI) is downloaded and mounted when first opened: mounted
// closed in the shell's first commit, it re-rendered synchronously there (docs/web.md#first-load).
const ThemeMenu = lazy(() => import('./ThemeMenu'));

/** Theme picker: Light, Dark, Spooky, Sunset (spec 000 §2), and the Custom Theme Pack's five for its owners. */
export function ThemePicker({ position = 'bottom-start' }: { position?: FloatingPosition }) {
  const theme = useThemeStore((s) => s.theme);
  // A pack theme left on this device falls back for an author who does not own the pack (useThemePack).
  useThemePack();
  return (
    <DeferredPopover
      popup="menu"
      trigger={
        <DeferredTooltip label="Choose theme" withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Choose theme (current: ${ALL_THEME_LABELS[theme]})`}>
            <IconPalette size={18} stroke={1.75} />
          </ActionIcon>
        </DeferredTooltip>
      }
    >
      {(layer) => <ThemeMenu {...layer} position={position} />}
    </DeferredPopover>
  );
}
