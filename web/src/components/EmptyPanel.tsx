import type { ReactNode } from 'react';
import { EmptyState, Paper } from '@mantine/core';

export interface EmptyPanelProps {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  /** The empty state's buttons or badge. */
  actions?: ReactNode;
  /** Default 'lg' ('md' when compact). */
  size?: 'md' | 'lg';
  /** Padding from the sm breakpoint up: 48 as a page's only content (default), 40 inside a tab. */
  padding?: number;
  /** No shadow (the panel sits flat on the page). */
  flat?: boolean;
  /** Inside a tab or a section: flat, padding 40, size 'md'. */
  compact?: boolean;
  maw?: number;
  'data-testid'?: string;
  /** Shown under the empty state, inside the panel. */
  children?: ReactNode;
}

/** The bordered panel a screen shows when it has nothing to list: icon, title, description, actions. */
export function EmptyPanel({ icon, title, description, actions, compact = false, size, padding, flat, maw, children, ...rest }: EmptyPanelProps) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'lg', sm: padding ?? (compact ? 40 : 48) }}
      shadow={(flat ?? compact) ? undefined : 'xs'}
      maw={maw}
      data-testid={rest['data-testid']}
    >
      <EmptyState variant="light" size={size ?? (compact ? 'md' : 'lg')} icon={icon} title={title} description={description}>
        {actions ? <EmptyState.Actions>{actions}</EmptyState.Actions> : null}
      </EmptyState>
      {children}
    </Paper>
  );
}
