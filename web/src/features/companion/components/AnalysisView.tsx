import { useState } from 'react';
import { Alert, Badge, Group, List, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { FINDING_KINDS, FINDING_LABELS } from '@chronicler/companion';
import type { AnalysisResult } from '../api';
import { HighlightedText } from './HighlightedText';

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper withBorder p="xs" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Paper>
  );
}

const MAX_LISTED = 60;

/** An analysis: the summary, the figures, the findings by kind, and the text with its highlights. */
export function AnalysisView({ text, result }: { text: string; result: AnalysisResult }) {
  const [active, setActive] = useState<number | null>(null);
  const { stats } = result;
  const kinds = FINDING_KINDS.filter((k) => result.counts[k] > 0);
  return (
    <Stack gap="md" data-testid="analysis-result">
      {result.notice ? <Alert color="yellow">{result.notice}</Alert> : null}
      {result.onDevice ? (
        <Text size="sm" c="dimmed">
          Analysed on this device.
        </Text>
      ) : null}
      <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="analysis-summary">
        {result.analysis}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Stat label="Flesch reading ease" value={stats.fleschReadingEase} />
        <Stat label="Grade level" value={stats.fleschKincaidGrade} />
        <Stat label="Words per sentence" value={`${stats.averageSentenceWords} ± ${stats.sentenceWordsSpread}`} />
        <Stat label="Dialogue" value={`${Math.round(stats.dialogueShare * 100)}%`} />
        <Stat label="Words" value={stats.words} />
        <Stat label="Paragraph length" value={`${stats.averageParagraphWords} words`} />
        <Stat label="Tense" value={stats.tense} />
        <Stat label="Point of view" value={stats.pointOfView} />
      </SimpleGrid>
      {kinds.length > 0 ? (
        <Group gap="xs" aria-label="Findings by kind">
          {kinds.map((k) => (
            <Badge key={k} variant="light" data-kind={k}>
              {FINDING_LABELS[k]}: {result.counts[k]}
            </Badge>
          ))}
        </Group>
      ) : null}
      <HighlightedText text={text} findings={result.findings} activeIndex={active} />
      {result.findings.length > 0 ? (
        <List spacing={4} size="sm" aria-label="Findings" data-testid="findings">
          {result.findings.slice(0, MAX_LISTED).map((f, i) => (
            <List.Item key={`${f.kind}-${f.start}-${i}`}>
              <UnstyledButton onClick={() => setActive(i)} onFocus={() => setActive(i)} aria-label={`${FINDING_LABELS[f.kind]}: ${f.message}`}>
                <Text size="sm" span fw={600}>
                  {FINDING_LABELS[f.kind]}
                </Text>{' '}
                <Text size="sm" span>
                  {f.message}
                </Text>
              </UnstyledButton>
            </List.Item>
          ))}
          {result.findings.length > MAX_LISTED ? (
            <List.Item>
              <Text size="sm" c="dimmed">
                and {result.findings.length - MAX_LISTED} more, highlighted in the text
              </Text>
            </List.Item>
          ) : null}
        </List>
      ) : null}
    </Stack>
  );
}
