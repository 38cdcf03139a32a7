/**
 * The AI companion (spec 000 §2 "/ai-companion"; docs/server.md#ai-companion): series and book
 * selectors, the suggestions and analysis tabs, the AI Writer Assistant card and the footer.
 * Suggestions are read from the device (they sync), generating one needs the server; analysis runs
 * on the server when it can be reached and on the device otherwise, with the same built-in code.
 */
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Alert, Button, Grid, Group, Loader, Paper, Select, Stack, Tabs, Text, Textarea, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBulb, IconRefresh, IconSparkles, IconWand, IconWifiOff } from '@tabler/icons-react';
import { AI_PAGE_SUGGESTION_TYPES, AI_SUGGESTION_LABELS, type AiSuggestionType, MINIMUMS } from '@chronicler/schema';
import { analyzeProse } from '@chronicler/companion';
import { storeGeneratedSuggestion } from '@chronicler/sync-client';
import { PageHeader } from '@/components/PageHeader';
import { serverMessageOf } from '@/lib/api';
import { FALLBACK_MESSAGES, TOASTS, withError } from '@/lib/copy/toasts';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { type AnalysisResult, analyzeText, generateSuggestion } from './api';
import { AnalysisView } from './components/AnalysisView';
import { CompanionFooter } from './components/CompanionFooter';
import { SuggestionCard } from './components/SuggestionCard';
import { allowanceText, useAllowance, useCompanionData } from './hooks';

/** The Refresh Suggestions lock (000 §9). */
export const REFRESH_LOCK_MS = 1000;

export interface CompanionScreenProps {
  title?: string;
  subtitle?: string;
  /** The series chosen when the page opens (the Writer's Companion opens on the current series). */
  initialSeriesId?: string | null;
  /** Shown under the assistant card (the Writer's Companion shows the insights panel there). */
  aside?: ReactNode;
}

export function CompanionScreen({
  title = 'AI Companion',
  subtitle = 'Suggestions and analysis drawn from your own series',
  initialSeriesId = null,
  aside,
}: CompanionScreenProps) {
  const db = useDb();
  const online = useOnline();
  const [seriesId, setSeriesId] = useState<string | null>(initialSeriesId);
  const [bookId, setBookId] = useState<string | null>(null);
  const [chapterId, setChapterId] = useState<string | null>(null);
  const [tab, setTab] = useState<string | null>('suggestions');
  const [reloadKey, setReloadKey] = useState(0);
  const { series, books, chapters, suggestions } = useCompanionData(seriesId, bookId, reloadKey);
  const { allowance, refresh: refreshAllowance } = useAllowance(online);

  // The series given (the Writer's Companion's current one) or, when the author has only one, that
  // one: a choice of one is no choice.
  const onlySeriesId = series?.length === 1 ? series[0]!.id : null;
  useEffect(() => {
    if (seriesId !== null) return;
    if (initialSeriesId) setSeriesId(initialSeriesId);
    else if (onlySeriesId) setSeriesId(onlySeriesId);
  }, [initialSeriesId, onlySeriesId, seriesId]);

  // Refresh Suggestions only toggles state for a moment (000 §2).
  const [refreshLocked, setRefreshLocked] = useState(false);
  useEffect(() => {
    if (!refreshLocked) return;
    const timer = setTimeout(() => setRefreshLocked(false), REFRESH_LOCK_MS);
    return () => clearTimeout(timer);
  }, [refreshLocked]);

  const [type, setType] = useState<AiSuggestionType>('plotIdea');
  const [generating, setGenerating] = useState(false);
  const [generateError, setGenerateError] = useState<string | null>(null);

  async function generate() {
    if (!seriesId) {
      toast.show(TOASTS.noSeriesFound);
      return;
    }
    setGenerating(true);
    setGenerateError(null);
    try {
      const row = await generateSuggestion({ seriesId, bookId, type });
      const { notice, ...stored } = row;
      await storeGeneratedSuggestion(db, stored);
      toast.show(notice ? { ...TOASTS.suggestionGenerated, message: notice } : TOASTS.suggestionGenerated);
    } catch (error) {
      setGenerateError(serverMessageOf(error, TOASTS.suggestionsGenerationFailed.message ?? FALLBACK_MESSAGES.unexpected));
      toast.show(withError(TOASTS.suggestionFailed, error));
    } finally {
      setGenerating(false);
      refreshAllowance();
    }
  }

  // --- analysis -----------------------------------------------------------------------------
  const [text, setText] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [analysis, setAnalysis] = useState<{ text: string; result: AnalysisResult } | null>(null);
  const [analysing, setAnalysing] = useState(false);
  const [analysisError, setAnalysisError] = useState<string | null>(null);
  const chapter = chapters?.find((c) => c.id === chapterId) ?? null;

  // Analysis runs by itself when a chapter is chosen and the analysis tab is active (000 §2): on the
  // device, from the synced chapter text, so it works offline.
  useEffect(() => {
    if (tab !== 'analysis' || !chapter) return;
    if (chapter.content.trim().length < MINIMUMS.analysisText) {
      setAnalysis(null);
      setAnalysisError(TOASTS.textTooShort.message ?? null);
      return;
    }
    setAnalysisError(null);
    setAnalysis({ text: chapter.content, result: { ...analyzeProse(chapter.content), engine: 'builtin', onDevice: true } });
  }, [tab, chapter]);

  async function analyse() {
    if (text.trim().length < MINIMUMS.analysisText) {
      toast.show(TOASTS.textTooShort);
      return;
    }
    setAnalysing(true);
    setAnalysisError(null);
    try {
      const result = await analyzeText(text, online);
      setAnalysis({ text, result });
      toast.show(TOASTS.analysisComplete);
    } catch (error) {
      setAnalysisError(serverMessageOf(error, FALLBACK_MESSAGES.analyzeWriting));
      toast.show(withError(TOASTS.analysisFailed, error));
    } finally {
      setAnalysing(false);
    }
  }

  function insert(content: string) {
    const el = textRef.current;
    const at = el && document.activeElement === el ? el.selectionStart : text.length;
    const before = text.slice(0, at);
    const gap = before === '' || /\s$/.test(before) ? '' : ' ';
    setText(`${before}${gap}${content}${text.slice(at)}`);
    setTab('analysis');
    toast.show(TOASTS.suggestionInserted);
  }

  // --- selectors ------------------------------------------------------------------------------
  const seriesOptions = (series ?? []).map((s) => ({ value: s.id, label: s.title || 'Untitled series' }));
  const seriesPlaceholder = series === undefined ? 'Loading series...' : series.length === 0 ? 'No series available' : 'Select a series';
  const booksLoading = seriesId !== null && books === undefined;
  const bookPlaceholder = booksLoading ? 'Loading books...' : seriesId && books?.length === 0 ? 'No books available' : 'Select a book (optional)';
  const chapterOptions = (chapters ?? []).map((c) => ({ value: c.id, label: c.title || 'Untitled chapter' }));
  const noAllowance = allowance !== null && allowance !== undefined && allowance.remaining === 0;

  const list = suggestions && 'rows' in suggestions ? suggestions.rows : [];
  return (
    <Stack gap="lg">
      <PageHeader
        title={title}
        subtitle={subtitle}
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} />} disabled={refreshLocked} onClick={() => setRefreshLocked(true)}>
            Refresh Suggestions
          </Button>
        }
      />
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label="Series"
          placeholder={seriesPlaceholder}
          data={seriesOptions}
          value={seriesId}
          disabled={!series || series.length === 0}
          onChange={(value) => {
            setSeriesId(value);
            // Choosing a series clears the book (000 §2).
            setBookId(null);
            setChapterId(null);
            setAnalysis(null);
          }}
          w={{ base: '100%', xs: 260 }}
          allowDeselect={false}
        />
        <Select
          label="Book"
          placeholder={bookPlaceholder}
          data={(books ?? []).map((b) => ({ value: b.id, label: b.title || 'Untitled book' }))}
          value={bookId}
          disabled={!seriesId || booksLoading || books?.length === 0}
          onChange={(value) => {
            setBookId(value);
            setChapterId(null);
          }}
          clearable
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {!online ? (
        <Alert color="gray" icon={<IconWifiOff size={18} />} data-testid="companion-offline">
          You are offline. Your saved suggestions and the analysis work here; generating new suggestions needs a connection.
        </Alert>
      ) : null}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="suggestions" leftSection={<IconBulb size={16} />}>
                Suggestions
              </Tabs.Tab>
              <Tabs.Tab value="analysis" leftSection={<IconWand size={16} />}>
                Analysis
              </Tabs.Tab>
            </Tabs.List>

            <Tabs.Panel value="suggestions" pt="md">
              <Stack gap="md">
                <Group align="flex-end" gap="sm" wrap="wrap">
                  <Select
                    label="Suggestion type"
                    data={AI_PAGE_SUGGESTION_TYPES.map((t) => ({ value: t, label: AI_SUGGESTION_LABELS[t] }))}
                    value={type}
                    onChange={(v) => v && setType(v as AiSuggestionType)}
                    allowDeselect={false}
                    w={{ base: '100%', xs: 220 }}
                  />
                  <Button
                    leftSection={<IconSparkles size={16} />}
                    onClick={() => void generate()}
                    loading={generating}
                    disabled={!online || !seriesId || noAllowance}
                  >
                    Generate Suggestion
                  </Button>
                </Group>
                {allowance ? (
                  <Text size="sm" c="dimmed" data-testid="allowance">
                    {allowanceText(allowance)}
                  </Text>
                ) : null}
                {!seriesId ? (
                  <Text c="dimmed">{series?.length === 0 ? TOASTS.noSeriesFound.message : 'Choose a series to see suggestions drawn from it.'}</Text>
                ) : suggestions && 'error' in suggestions ? (
                  <Alert color="red" icon={<IconAlertCircle size={18} />} title={FALLBACK_MESSAGES.aiSuggestionsLoad} data-testid="suggestions-error">
                    <Stack gap="xs" align="flex-start">
                      <Text size="sm">{serverMessageOf(suggestions.error, FALLBACK_MESSAGES.aiSuggestionsLoad)}</Text>
                      <Button size="xs" color="red" variant="light" onClick={() => setReloadKey((n) => n + 1)}>
                        Try Again
                      </Button>
                    </Stack>
                  </Alert>
                ) : suggestions === undefined ? (
                  <Loader size="sm" aria-label="Loading suggestions" />
                ) : (
                  <Stack gap="sm" data-testid="suggestion-list">
                    {generateError ? (
                      <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="generate-error">
                        <Group justify="space-between" wrap="nowrap">
                          <Text size="sm">{generateError}</Text>
                          <Button size="xs" color="red" variant="light" onClick={() => void generate()} disabled={!online}>
                            Try Again
                          </Button>
                        </Group>
                      </Alert>
                    ) : null}
                    {list.length === 0 ? <Text c="dimmed">No suggestions yet: generate one drawn from your series.</Text> : null}
                    {list.map((s) => (
                      <SuggestionCard key={s.id} suggestion={s} onInsert={insert} />
                    ))}
                  </Stack>
                )}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="analysis" pt="md">
              <Stack gap="md">
                <Select
                  label="Chapter"
                  placeholder={seriesId ? (chapterOptions.length ? 'Analyse a chapter' : 'No chapters yet') : 'Choose a series first'}
                  data={chapterOptions}
                  value={chapterId}
                  onChange={setChapterId}
                  disabled={chapterOptions.length === 0}
                  clearable
                  w={{ base: '100%', xs: 320 }}
                />
                <Textarea
                  ref={textRef}
                  label="Or paste text to analyse"
                  aria-describedby="analysis-counter"
                  value={text}
                  onChange={(e) => setText(e.currentTarget.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void analyse();
                  }}
                  autosize
                  minRows={6}
                  maxRows={16}
                  data-testid="analysis-text"
                />
                <Group justify="space-between">
                  <Text size="sm" c={text.length < MINIMUMS.analysisText ? 'dimmed' : undefined} data-testid="analysis-counter" id="analysis-counter">
                    {text.length}/{MINIMUMS.analysisText}
                  </Text>
                  <Button onClick={() => void analyse()} loading={analysing} disabled={text.length < MINIMUMS.analysisText}>
                    Analyze
                  </Button>
                </Group>
                {analysisError ? (
                  <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="analysis-error">
                    <Group justify="space-between" wrap="nowrap">
                      <Text size="sm">{analysisError}</Text>
                      {text.length >= MINIMUMS.analysisText ? (
                        <Button size="xs" color="red" variant="light" onClick={() => void analyse()}>
                          Try Again
                        </Button>
                      ) : null}
                    </Group>
                  </Alert>
                ) : null}
                {analysis ? <AnalysisView text={analysis.text} result={analysis.result} /> : null}
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="lg" p="lg">
            <Group gap="sm" mb="sm" wrap="nowrap">
              <ThemeIcon variant="light" size="lg" radius="md">
                <IconSparkles size={20} />
              </ThemeIcon>
              <Title order={3} fz="lg">
                AI Writer Assistant
              </Title>
            </Group>
            <Text size="sm" c="dimmed">
              Suggestions come from your own characters, places and timeline — never from books after the one you choose — and the
              analysis reads your prose for pacing, passive voice, repeats and drift. It all works without an AI model, and offline.
            </Text>
            {allowance?.modelConfigured ? (
              <Text size="sm" mt="sm">
                An AI model is connected: suggestions are written by it, with your series bible as context.
              </Text>
            ) : null}
          </Paper>
          {aside ? <Stack mt="lg">{aside}</Stack> : null}
        </Grid.Col>
      </Grid>

      <CompanionFooter />
    </Stack>
  );
}
