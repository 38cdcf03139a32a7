import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';
import { EmptyPanel } from '@/components/EmptyPanel';

interface ComingSoonProps {
  category: string;
  description: string;
  icon: ReactNode;
}

/** A world-building category that is not built yet (001 §2: only Locations works). */
export function ComingSoon({ category, description, icon }: ComingSoonProps) {
  return (
    <EmptyPanel
      icon={icon}
      title="Coming Soon"
      description={description}
      data-testid="coming-soon"
      actions={
        <Badge variant="light" size="lg" radius="sm">
          {category} are on the way
        </Badge>
      }
    />
  );
}
