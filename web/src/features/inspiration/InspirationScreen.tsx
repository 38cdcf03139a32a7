/**
 * The Inspiration Pack (a premium product): 100 prompts, browsable by kind and searchable;
 * "Use prompt" starts a chapter in a book of the current series. For owners of the pack
 * (entitlements on this device, so it works offline); others are told what it holds and where to
 * get it.
 */
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBulb, IconSearch } from '@tabler/icons-react';
import { EmptyPanel } from '@/components/EmptyPanel';
import { PageHeader } from '@/components/PageHeader';
import { useOwnsProduct } from '@/lib/useOwnedProducts';
import { PROMPTS, PROMPT_KINDS, PROMPT_KIND_LABELS, type PromptKind, type WritingPrompt, searchPrompts } from './prompts';
import { UsePromptDialog } from './UsePromptDialog';

export function InspirationScreen() {
  const owns = useOwnsProduct('inspiration-pack');
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<PromptKind | 'all'>('all');
  const chosenId = params.get('prompt');
  const chosen = useMemo(() => PROMPTS.find((p) => p.id === chosenId) ?? null, [chosenId]);
  const shown = useMemo(() => searchPrompts(query, kind), [query, kind]);
  const use = (prompt: WritingPrompt | null) => setParams(prompt ? { prompt: prompt.id } : {}, { replace: true });

  if (!owns) {
    return (
      <>
        <PageHeader title="Inspiration Pack" subtitle="100 writing prompts to get past the blank page" />
        <EmptyPanel
          icon={<IconBulb size={28} aria-hidden />}
          title="Part of the Inspiration Pack"
          description="Prompts for plot, character, setting, dialogue, conflict and world building, one offered every day on your dashboard."
          actions={
            <Button component={Link} to="/products">
              See the Inspiration Pack
            </Button>
          }
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title="Inspiration Pack" subtitle={`${PROMPTS.length} writing prompts to get past the blank page`} />
      <Stack gap="md" mb="lg">
        <TextInput
          leftSection={<IconSearch size={16} aria-hidden />}
          placeholder="Search prompts"
          aria-label="Search prompts"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <SegmentedControl
          aria-label="Kind of prompt"
          value={kind}
          onChange={(v) => setKind(v as PromptKind | 'all')}
          data={[{ value: 'all', label: 'All' }, ...PROMPT_KINDS.map((k) => ({ value: k, label: PROMPT_KIND_LABELS[k] }))]}
          style={{ overflowX: 'auto' }}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {shown.length} {shown.length === 1 ? 'prompt' : 'prompts'}
        </Text>
      </Stack>
      {shown.length === 0 ? (
        <EmptyPanel compact icon={<IconSearch size={28} aria-hidden />} title="No prompts match" description="Try fewer or other words." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {shown.map((prompt) => (
            <Card key={prompt.id} withBorder radius="lg" padding="md" data-testid={`prompt-${prompt.id}`}>
              <Stack gap="xs" h="100%">
                <Group justify="space-between" wrap="nowrap">
                  <Title order={3} fz="md">
                    {prompt.title}
                  </Title>
                  <Badge variant="light">{PROMPT_KIND_LABELS[prompt.kind]}</Badge>
                </Group>
                <Text size="sm" style={{ flex: 1 }}>
                  {prompt.text}
                </Text>
                <Button variant="light" size="xs" onClick={() => use(prompt)} aria-label={`Use prompt: ${prompt.title}`}>
                  Use prompt
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <UsePromptDialog prompt={chosen} onClose={() => use(null)} />
    </>
  );
}
