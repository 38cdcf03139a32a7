import { Link } from 'react-router';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { useOwnsProduct } from '@/lib/useOwnedProducts';
import { PROMPT_KIND_LABELS, promptOfTheDay } from './prompts';

/**
 * Today's prompt from the Inspiration Pack, for the dashboard's `promptOfTheDay` slot (the app
 * layer wires it). Owners get the prompt and "Use prompt"; others a short pointer to the pack.
 */
export function PromptOfTheDay({ date }: { date?: Date }) {
  const owns = useOwnsProduct('inspiration-pack');
  if (!owns) {
    return (
      <Paper withBorder radius="lg" p="md" data-testid="prompt-of-the-day">
        <Group gap="xs" wrap="nowrap">
          <IconBulb size={18} aria-hidden />
          <Text size="sm">
            Stuck? The <Link to="/products">Inspiration Pack</Link> offers a new writing prompt every day.
          </Text>
        </Group>
      </Paper>
    );
  }
  const prompt = promptOfTheDay(date);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="prompt-of-the-day">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconBulb size={18} aria-hidden />
            <Title order={2} fz="md">
              Prompt of the day
            </Title>
          </Group>
          <Badge variant="light">{PROMPT_KIND_LABELS[prompt.kind]}</Badge>
        </Group>
        <Text fw={600}>{prompt.title}</Text>
        <Text size="sm">{prompt.text}</Text>
        <Group justify="flex-end" gap="xs">
          <Button component={Link} to="/inspiration" variant="subtle" size="xs">
            More prompts
          </Button>
          <Button component={Link} to={`/inspiration?prompt=${prompt.id}`} size="xs">
            Use prompt
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
