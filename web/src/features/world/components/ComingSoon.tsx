import type { ReactNode } from 'react';
import { Badge, EmptyState, Paper } from '@mantine/core';

interface ComingSoonProps {
  category: string;
  description: string;
  icon: ReactNode;
}

/** A world-building category that is not built yet (001 §2: only Locations works). */
export function ComingSoon({ category, description, icon }: ComingSoonProps) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs" data-testid="coming-soon">
      <EmptyState variant="light" size="lg" icon={icon} title="Coming Soon" description={description}>
        <EmptyState.Actions>
          <Badge variant="light" size="lg" radius="sm">
            {category} are on the way
          </Badge>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}
