import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';
import { EmptyPanel } from './EmptyPanel';
import { PageHeader } from './PageHeader';

interface PagePlaceholderProps {
  title: string;
  subtitle?: string;
  /** What this screen will do, shown in the empty state. */
  description: string;
  icon?: ReactNode;
  children?: ReactNode;
}

/** A screen whose body is still being built: its real heading and a "coming" empty state. */
export function PagePlaceholder({ title, subtitle, description, icon, children }: PagePlaceholderProps) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <EmptyPanel
        icon={icon ?? <IconHourglassHigh size={30} stroke={1.5} />}
        title="Coming soon"
        description={description}
        actions={
          <Badge variant="light" size="lg" radius="sm">
            In the works
          </Badge>
        }
      >
        {children}
      </EmptyPanel>
    </>
  );
}
