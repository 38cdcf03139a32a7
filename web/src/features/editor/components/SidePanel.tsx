import { NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import type { ChapterEditorController } from '../hooks/useChapterEditor';
import { type ChapterStatus, STATUS_OPTIONS, WRITING_TIPS } from '../model/constants';
import { CompanionPanel } from './CompanionPanel';
import { CountsPanel } from './Counts';
import classes from '../editor.module.css';

/** Large screens only (spec 001 §2): status selector, counts, four writing tips. */
export function SidePanel({ controller, disabled }: { controller: ChapterEditorController; disabled: boolean }) {
  return (
    <Stack gap="md" className={classes.sidePanel} component="aside" aria-label="Chapter details" visibleFrom="lg">
      <Paper withBorder radius="md" p="md">
        <NativeSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={controller.status}
          disabled={disabled}
          onChange={(e) => controller.setStatus(e.currentTarget.value as ChapterStatus)}
        />
      </Paper>
      <CountsPanel controller={controller} previous={controller.previous} />
      <CompanionPanel controller={controller} disabled={disabled} />
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="tips-heading">
        <Title order={2} size="h5" id="tips-heading" mb="sm">
          Writing tips
        </Title>
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {WRITING_TIPS.map((tip) => (
            <Stack key={tip.title} gap={2} component="li">
              <Text size="sm" fw={600}>
                <IconBulb size={14} aria-hidden style={{ verticalAlign: '-2px', marginRight: 4 }} />
                {tip.title}
              </Text>
              <Text size="sm" c="dimmed">
                {tip.text}
              </Text>
            </Stack>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
