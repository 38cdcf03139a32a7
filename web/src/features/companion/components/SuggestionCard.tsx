import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconTextPlus } from '@tabler/icons-react';
import { AI_SUGGESTION_LABELS, type AiSuggestionType } from '@chronicler/schema';
import classes from '../companion.module.css';

export interface SuggestionView {
  id: string;
  type: AiSuggestionType;
  content: string;
  engine?: 'builtin' | 'model';
}

export function SuggestionCard({ suggestion, onInsert }: { suggestion: SuggestionView; onInsert?: (content: string) => void }) {
  return (
    <Paper withBorder p="md" radius="md" className={classes.suggestion} data-testid="suggestion" data-type={suggestion.type}>
      <Group justify="space-between" mb={6} wrap="nowrap">
        <Badge variant="light">{AI_SUGGESTION_LABELS[suggestion.type]}</Badge>
        {suggestion.engine === 'model' ? (
          <Text size="xs" c="dimmed">
            AI model
          </Text>
        ) : null}
      </Group>
      <Text size="sm">{suggestion.content}</Text>
      {onInsert ? (
        <Group justify="flex-end" mt="xs">
          <Button size="xs" variant="subtle" leftSection={<IconTextPlus size={14} />} onClick={() => onInsert(suggestion.content)}>
            Insert into text
          </Button>
        </Group>
      ) : null}
    </Paper>
  );
}
