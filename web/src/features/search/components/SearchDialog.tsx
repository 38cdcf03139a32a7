/**
 * The search dialog (Ctrl/Cmd+K): a query, the series to search (this one or all), and the
 * results grouped — chapters by book, the bible by kind — each with its count and snippets.
 * Arrow keys move through the results, Enter opens one; a chapter opens in the editor with the
 * hit selected. Everything is read from the index on this device, so it works offline
 * (docs/decisions/0012-offline-search.md).
 */
import '@mantine/core/styles/SegmentedControl.layer.css';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { Badge, Group, Loader, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconCloudOff, IconSearch } from '@tabler/icons-react';
import type { SearchResult } from '@chronicler/schema/search';
import { Modal } from '@/lib/first-load';
import { setCurrentSeriesId } from '@/lib/currentSeries';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { useOnline } from '@/lib/useOnline';
import { useSession } from '@/lib/session';
import { useSearch } from '../hooks/useSearch';
import { openTarget } from '../model/open-target';
import { ResultList } from './ResultList';
import classes from './search.module.css';

type Scope = 'series' | 'all';

export interface SearchDialogProps {
  opened: boolean;
  onClose: () => void;
}

export function SearchDialog({ opened, onClose }: SearchDialogProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const { series, all } = useCurrentSeries();
  const online = useOnline();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<Scope>('series');
  const seriesId = scope === 'series' ? (series?.id ?? null) : null;
  const { status, answer, searching } = useSearch(opened ? userId : null, query, seriesId);
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);

  const flat = useMemo(() => answer?.groups.flatMap((g) => g.results) ?? [], [answer]);
  useEffect(() => setActive(0), [answer]);

  const choose = (result: SearchResult, snippet = 0) => {
    if (result.kind !== 'chapter') setCurrentSeriesId(result.seriesId);
    onClose();
    navigate(openTarget(result, snippet));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (flat.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + flat.length) % flat.length);
    } else if (event.key === 'Home' && event.ctrlKey) {
      setActive(0);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const result = flat[active];
      if (result) choose(result);
    }
  };

  const trimmed = query.trim();
  const hasSeries = (all?.length ?? 0) > 0;
  const activeId = flat[active] ? `${listId}-${flat[active].id}` : undefined;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Search"
      size="xl"
      yOffset="8vh"
      classNames={{ body: classes.body }}
      closeButtonProps={{ 'aria-label': 'Close search' }}
      data-testid="search-dialog"
    >
      <Stack gap="sm">
        <TextInput
          ref={input}
          data-autofocus
          aria-label="Search text"
          placeholder='Words, names, or a "quoted phrase"'
          leftSection={searching ? <Loader size={16} /> : <IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          role="combobox"
          aria-expanded={flat.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          spellCheck={false}
        />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <SegmentedControl
            size="xs"
            value={scope}
            onChange={(value) => setScope(value as Scope)}
            aria-label="Where to search"
            data={[
              { value: 'series', label: series ? `This series: ${series.title.trim() || 'Untitled series'}` : 'This series' },
              { value: 'all', label: 'All series' },
            ]}
          />
          {online ? null : (
            <Group gap={4} c="dimmed" data-testid="search-offline">
              <IconCloudOff size={14} aria-hidden />
              <Text size="xs">Offline: searching what is on this device</Text>
            </Group>
          )}
        </Group>
        <div aria-live="polite" className={classes.status}>
          <StatusLine phase={status.phase} message={status.message} trimmed={trimmed} hasSeries={hasSeries} answer={answer} searching={searching} />
        </div>
        {answer && answer.total > 0 ? (
          <ResultList id={listId} groups={answer.groups} activeId={flat[active]?.id ?? null} onChoose={choose} onHover={(id) => setActive(Math.max(0, flat.findIndex((r) => r.id === id)))} />
        ) : null}
      </Stack>
    </Modal>
  );
}

interface StatusLineProps {
  phase: string;
  message: string | undefined;
  trimmed: string;
  hasSeries: boolean;
  answer: ReturnType<typeof useSearch>['answer'];
  searching: boolean;
}

function StatusLine({ phase, message, trimmed, hasSeries, answer, searching }: StatusLineProps) {
  if (phase === 'failed') {
    return (
      <Text size="sm" c="red" role="alert">
        Search could not open its index on this device{message ? ` (${message})` : ''}. Reload the page to try again.
      </Text>
    );
  }
  if (!hasSeries) return <Text size="sm" c="dimmed">Nothing to search yet: create a series and write a chapter first.</Text>;
  if (trimmed.length < 2) {
    return (
      <Text size="sm" c="dimmed">
        Type at least two letters. Finds chapter text, titles, synopses and notes, characters, locations, events and books. In a chapter, Ctrl+F finds within it.
      </Text>
    );
  }
  if (phase === 'opening' || phase === 'idle' || (!answer && searching)) {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Preparing search…
        </Text>
      </Group>
    );
  }
  if (!answer) return null;
  if (answer.total === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="search-no-results">
        No matches for “{trimmed}”.
      </Text>
    );
  }
  const shown = answer.groups.reduce((n, g) => n + g.results.length, 0);
  return (
    <Group gap="xs">
      <Badge variant="light" size="sm">
        {answer.hits} {answer.hits === 1 ? 'match' : 'matches'}
      </Badge>
      <Text size="xs" c="dimmed">
        in {shown} {shown === 1 ? 'place' : 'places'}
        {answer.total > shown ? ` (first ${shown} of ${answer.more ? 'over ' : ''}${answer.total} shown: add a word to narrow it)` : ''}
      </Text>
    </Group>
  );
}

export default SearchDialog;
