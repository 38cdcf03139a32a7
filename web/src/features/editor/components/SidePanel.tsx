import { useState } from 'react';
import { Button, NativeSelect, Paper, Stack, Text, Title, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBulb, IconNotes } from '@tabler/icons-react';
import { Drawer, OpenedOnce } from '@/lib/first-load';
import type { ChapterEditorController } from '../hooks/useChapterEditor';
import { type ChapterStatus, STATUS_OPTIONS, WRITING_TIPS } from '../model/constants';
import { ChapterNotes } from './ChapterNotes';
import notesClasses from './ChapterNotes.module.css';
import { CompanionPanel } from './CompanionPanel';
import { CountsPanel } from './Counts';
import classes from '../editor.module.css';

/**
 * Large screens only (spec 001 §2): status selector, the chapter's synopsis and notes, counts, four
 * writing tips. On smaller screens the synopsis and notes open as a sheet (ChapterNotesSheet).
 */
export function SidePanel({ controller, disabled }: { controller: ChapterEditorController; disabled: boolean }) {
  const large = useMediaQuery(`(min-width: ${useMantineTheme().breakpoints.lg})`);
  return (
    <>
      {large ? null : <ChapterNotesSheet controller={controller} disabled={disabled} />}
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
        {large ? (
          <Paper withBorder radius="md" p="md">
            <ChapterNotes chapter={controller.chapter} disabled={disabled} idPrefix="side" />
          </Paper>
        ) : null}
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
    </>
  );
}

/** A phone's side panel: a button at the bottom of the screen opens the synopsis and notes as a sheet. */
function ChapterNotesSheet({ controller, disabled }: { controller: ChapterEditorController; disabled: boolean }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button className={notesClasses.sheetButton} hiddenFrom="lg" variant="default" radius="xl" leftSection={<IconNotes size={16} aria-hidden />} onClick={() => setOpened(true)}>
        Synopsis and notes
      </Button>
      <OpenedOnce opened={opened}>
        {(open) => (
          <Drawer opened={open} onClose={() => setOpened(false)} position="bottom" size="85%" title="Synopsis and notes">
            <ChapterNotes chapter={controller.chapter} disabled={disabled} idPrefix="sheet" />
          </Drawer>
        )}
      </OpenedOnce>
    </>
  );
}
