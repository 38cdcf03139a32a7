/**
 * The badges under the title and the counts panel of the side panel. They subscribe to the
 * per-keystroke counts on their own, so typing re-renders only them.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { chapterStatusLabel, formatWordChange, wordChange } from '@chronicler/schema';
import { type ChapterEditorController, useEditorState } from '../hooks/useChapterEditor';
import { type ChapterStatus, formatCount } from '../model/constants';
import classes from '../editor.module.css';

/** Theme colours: the primary colour for work under way (undefined), teal when done, gray for a draft. */
const STATUS_COLOR: Record<string, string | undefined> = { Completed: 'teal', Draft: 'gray', 'In Progress': undefined };

const number = formatCount;

export function EditorBadges({ controller, status, previous }: { controller: ChapterEditorController; status: ChapterStatus; previous: number }) {
  const words = useEditorState(controller, (s) => s.words);
  const label = chapterStatusLabel(status);
  const change = wordChange(words, previous);
  return (
    <Group gap="xs" data-testid="editor-badges">
      <Badge variant="light" color={STATUS_COLOR[label]} data-testid="status-badge">
        {label}
      </Badge>
      <Badge
        variant="outline"
        color={change < 0 ? 'orange' : 'teal'}
        data-testid="change-badge"
        className={classes.countValue}
        title="Words changed since the last save"
        aria-label={`${formatWordChange(change)} words since the last save`}
      >
        {/* Labelled: "+0 words" beside the total read as a second, wrong total. */}
        {formatWordChange(change)} since save
      </Badge>
      <Badge variant="default" data-testid="words-badge" className={classes.countValue}>
        {number(words)} {words === 1 ? 'word' : 'words'}
      </Badge>
    </Group>
  );
}

function Count({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={700} className={classes.countValue}>
        {value}
      </Text>
    </Stack>
  );
}

export function CountsPanel({ controller, previous }: { controller: ChapterEditorController; previous: number }) {
  const words = useEditorState(controller, (s) => s.words);
  const chars = useEditorState(controller, (s) => s.chars);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="counts-heading">
      <Title order={2} size="h5" id="counts-heading" mb="sm">
        Counts
      </Title>
      <SimpleGrid cols={2} spacing="sm" data-testid="counts-panel">
        <Count label="Words" value={number(words)} />
        <Count label="Characters" value={number(chars)} />
        <Count label="Previous" value={number(previous)} />
        <Count label="Change" value={formatWordChange(wordChange(words, previous))} />
      </SimpleGrid>
    </Paper>
  );
}
