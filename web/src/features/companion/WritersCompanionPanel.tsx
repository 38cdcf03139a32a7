/**
 * The dashboard's Writer's Companion panel (spec 000 §2 "Dashboard AI panel"; the dashboard frame
 * gives it a slot): the first series' suggestions, "Generate More Insights" (disabled while
 * generating, while loading, or when today's allowance is used up), the Upgrade prompt without AI
 * access, and the two built-in samples when the suggestions cannot be fetched.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFeather, IconSparkles } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { gateState } from '@chronicler/schema';
import { SAMPLE_SUGGESTIONS } from '@chronicler/companion';
import { seriesList, storeGeneratedSuggestion } from '@chronicler/sync-client';
import { FeatureGate } from '@/components/FeatureGate';
import { TOASTS, withError } from '@/lib/copy/toasts';
import { useSession } from '@/lib/session';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { fetchSuggestions, generateSuggestion } from './api';
import { type SuggestionView, SuggestionCard } from './components/SuggestionCard';
import { allowanceText, useAllowance } from './hooks';

/** How many suggestions the panel shows (the newest). */
const SHOWN = 3;

export function WritersCompanionPanel() {
  const db = useDb();
  const online = useOnline();
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  const series = useLiveQuery(() => seriesList(db), [db]);
  const seriesId = series?.[0]?.id ?? null;
  const [items, setItems] = useState<SuggestionView[] | undefined>(undefined);
  const [samples, setSamples] = useState(false);
  const [generating, setGenerating] = useState(false);
  const { allowance, refresh } = useAllowance(online);

  useEffect(() => {
    if (series === undefined) return;
    if (!seriesId) {
      setItems([]);
      return;
    }
    let live = true;
    setItems(undefined);
    fetchSuggestions(seriesId).then(
      (rows) => {
        if (!live) return;
        setSamples(false);
        setItems(rows);
      },
      () => {
        if (!live) return;
        // A failed fetch yields an empty list and the two built-in samples (000 §2).
        setSamples(true);
        setItems(SAMPLE_SUGGESTIONS.map((s, i) => ({ ...s, id: `sample-${i}` })));
      },
    );
    return () => {
      live = false;
    };
  }, [series, seriesId, online]);

  const loading = items === undefined || allowance === undefined;
  const remaining = allowance?.remaining ?? null;
  const used = remaining === 0;

  async function generateMore() {
    if (!seriesId) {
      toast.show(TOASTS.noSeriesFound);
      return;
    }
    setGenerating(true);
    try {
      const { notice: _notice, ...row } = await generateSuggestion({ seriesId, type: 'insight' });
      await storeGeneratedSuggestion(db, row);
      setItems((list) => [...(samples ? [] : (list ?? [])), row]);
      setSamples(false);
      toast.show(TOASTS.newInsightsGenerated);
    } catch (error) {
      toast.show(withError(TOASTS.suggestionsGenerationFailed, error));
    } finally {
      setGenerating(false);
      refresh();
    }
  }

  const access = gateState({ plan, feature: 'aiSuggestions' });
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="writers-companion-panel">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" radius="md" size="lg">
            <IconFeather size={20} />
          </ThemeIcon>
          <Title order={3} fz="lg">
            Writer's Companion
          </Title>
        </Group>
        <Button component={Link} to="/writers-companion" variant="subtle" size="xs">
          Open
        </Button>
      </Group>
      <FeatureGate feature="aiSuggestions">
        <Stack gap="sm">
          {loading ? (
            <>
              <Skeleton height={60} radius="md" />
              <Skeleton height={60} radius="md" />
            </>
          ) : (
            <>
              {samples ? (
                <Text size="xs" c="dimmed">
                  Sample suggestions — your own appear when the companion can be reached.
                </Text>
              ) : null}
              {items!.length === 0 ? <Text size="sm" c="dimmed">No insights yet: generate some from your series.</Text> : null}
              {items!.slice(-SHOWN).map((s) => (
                <SuggestionCard key={s.id} suggestion={s} />
              ))}
            </>
          )}
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c={used ? 'red' : 'dimmed'} data-testid="panel-allowance">
              {allowance ? (used ? 'Daily limit reached' : allowanceText(allowance)) : online ? '' : 'Offline'}
            </Text>
            <Button
              leftSection={<IconSparkles size={16} />}
              onClick={() => void generateMore()}
              loading={generating}
              disabled={generating || loading || (remaining !== null && remaining !== -1 && remaining <= 0) || !online}
            >
              Generate More Insights
            </Button>
          </Group>
          {used && access.requiredTier !== 'legendary' && plan !== 'legendary' ? (
            <Text size="sm">
              <Link to="/subscriptions">Upgrade</Link> for more suggestions a day.
            </Text>
          ) : null}
        </Stack>
      </FeatureGate>
    </Paper>
  );
}
