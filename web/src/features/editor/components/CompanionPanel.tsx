/**
 * The writing companion inside the chapter editor (beyond the spec): analyse the open chapter in
 * place (findings highlighted in the text, a list that jumps to each), and insert one of the
 * series' stored suggestions at the cursor. Runs on the device with the built-in code, offline too.
 */
import { useState } from 'react';
import { Button, Group, Paper, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconTextPlus, IconWand } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { AI_SUGGESTION_LABELS, MINIMUMS } from '@chronicler/schema';
import { FINDING_LABELS, type ProseAnalysis, analyzeProse } from '@chronicler/companion';
import { suggestionsOfSeries } from '@chronicler/sync-client';
import { TOASTS } from '@/lib/copy/toasts';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import type { ChapterEditorController } from '../hooks/useChapterEditor';
import { insertAtCursor, revealFinding, showFindings } from '../model/companion-highlights';

const LISTED = 25;

export function CompanionPanel({ controller, disabled }: { controller: ChapterEditorController; disabled: boolean }) {
  const db = useDb();
  const seriesId = controller.book?.seriesId ?? null;
  const suggestions = useLiveQuery(async () => (seriesId ? suggestionsOfSeries(db, seriesId) : []), [db, seriesId]);
  const [result, setResult] = useState<ProseAnalysis | null>(null);

  function analyse() {
    const view = controller.editorRef.current?.view;
    const text = controller.getText();
    if (text.trim().length < MINIMUMS.analysisText) {
      toast.show(TOASTS.textTooShort);
      return;
    }
    const analysis = analyzeProse(text);
    setResult(analysis);
    if (view) showFindings(view, analysis.findings);
    toast.show(TOASTS.analysisComplete);
  }

  function clear() {
    const view = controller.editorRef.current?.view;
    if (view) showFindings(view, []);
    setResult(null);
  }

  async function insert(content: string) {
    const view = controller.editorRef.current?.view;
    if (!view) return;
    // Words typed before the insertion are the author's writing: saved first, as writing. The
    // inserted text is then saved on its own, marked as the companion's, so it never counts as
    // words written (docs/server.md#writing-statistics).
    if (controller.store.getState().dirty) await controller.save({ auto: true, quiet: true });
    insertAtCursor(view, content);
    await controller.save({ auto: true, quiet: true, writingKind: 'companion' });
    // The old findings' positions no longer hold for the new text.
    if (result) clear();
    toast.show(TOASTS.suggestionInserted);
  }

  const recent = (suggestions ?? []).slice(-5).reverse();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="companion-heading" data-testid="editor-companion">
      <Title order={2} size="h5" id="companion-heading" mb="sm">
        Companion
      </Title>
      <Stack gap="sm">
        <Group gap="xs">
          <Button size="xs" leftSection={<IconWand size={14} />} onClick={analyse} disabled={disabled}>
            Analyse chapter
          </Button>
          {result ? (
            <Button size="xs" variant="subtle" onClick={clear}>
              Clear highlights
            </Button>
          ) : null}
        </Group>
        {result ? (
          <>
            <Text size="sm" data-testid="editor-analysis-summary">
              {result.analysis}
            </Text>
            <ScrollArea.Autosize mah={240}>
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Findings">
                {result.findings.slice(0, LISTED).map((f, i) => (
                  <li key={`${f.start}-${i}`}>
                    <UnstyledButton onClick={() => controller.editorRef.current?.view && revealFinding(controller.editorRef.current.view, f)}>
                      <Text size="xs">
                        <b>{FINDING_LABELS[f.kind]}</b> {f.message}
                      </Text>
                    </UnstyledButton>
                  </li>
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </>
        ) : null}
        {recent.length > 0 ? (
          <Stack gap={6}>
            <Text size="xs" c="dimmed">
              Suggestions for this series
            </Text>
            {recent.map((s) => (
              <Stack key={s.id} gap={2}>
                <Text size="xs" fw={600}>
                  {AI_SUGGESTION_LABELS[s.type]}
                </Text>
                <Text size="xs" lineClamp={3}>
                  {s.content}
                </Text>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconTextPlus size={12} />}
                  onClick={() => void insert(s.content)}
                  disabled={disabled}
                  aria-label={`Insert at cursor: ${s.content.slice(0, 40)}`}
                >
                  Insert at cursor
                </Button>
              </Stack>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
