/** The grouped results: a listbox whose options are the results, each with its count and snippets. */
import { Badge, Text } from '@mantine/core';
import type { ResultGroup, ResultSnippet, SearchResult } from '@chronicler/schema/search';
import classes from './search.module.css';

const UNTITLED: Record<SearchResult['kind'], string> = { chapter: 'Untitled chapter', book: 'Untitled book', character: 'Unnamed character', location: 'Unnamed location', event: 'Untitled event' };

export interface ResultListProps {
  id: string;
  groups: readonly ResultGroup[];
  activeId: string | null;
  onChoose: (result: SearchResult, snippet?: number) => void;
  onHover: (id: string) => void;
}

export function ResultList({ id, groups, activeId, onChoose, onHover }: ResultListProps) {
  return (
    <div id={id} role="listbox" aria-label="Search results" className={classes.results} data-testid="search-results">
      {groups.map((group) => (
        <div key={group.key} role="group" aria-labelledby={`${id}-${group.key}`} className={classes.group}>
          <div id={`${id}-${group.key}`} className={classes.groupHeader}>
            <span>{group.label}</span>
            <span className={classes.groupCount}>{group.count}</span>
          </div>
          {group.results.map((result) => (
            <ResultOption key={result.id} listId={id} result={result} active={result.id === activeId} onChoose={onChoose} onHover={onHover} />
          ))}
        </div>
      ))}
    </div>
  );
}

function ResultOption({ listId, result, active, onChoose, onHover }: { listId: string; result: SearchResult; active: boolean; onChoose: ResultListProps['onChoose']; onHover: (id: string) => void }) {
  const title = result.title.trim() || UNTITLED[result.kind];
  return (
    <div
      id={`${listId}-${result.id}`}
      role="option"
      aria-selected={active}
      className={classes.option}
      data-active={active || undefined}
      data-kind={result.kind}
      onMouseMove={() => onHover(result.id)}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onChoose(result)}
    >
      <div className={classes.optionHead}>
        <Text size="sm" fw={600} truncate="end">
          {title}
        </Text>
        <Badge size="xs" variant="light" color="gray" aria-label={`${result.count} ${result.count === 1 ? 'match' : 'matches'}`}>
          {result.count}
        </Badge>
      </div>
      {result.snippets.map((snippet, i) => (
        <SnippetLine key={`${snippet.field}:${snippet.source.from}`} snippet={snippet} showField={snippet.field !== 'content'} onClick={(e) => { e.stopPropagation(); onChoose(result, i); }} />
      ))}
    </div>
  );
}

function SnippetLine({ snippet, showField, onClick }: { snippet: ResultSnippet; showField: boolean; onClick: (e: React.MouseEvent) => void }) {
  return (
    <div className={classes.snippet} onClick={onClick}>
      {showField ? <span className={classes.field}>{snippet.fieldLabel}: </span> : null}
      {snippet.cutBefore ? '…' : ''}
      {snippet.before}
      <mark className={classes.mark}>{snippet.match}</mark>
      {snippet.after}
      {snippet.cutAfter ? '…' : ''}
    </div>
  );
}
