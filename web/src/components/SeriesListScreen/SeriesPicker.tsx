import '@mantine/core/styles/Combobox.layer.css';
import { Select } from '@mantine/core';
import { IconBooks } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { Series } from '@chronicler/schema';

export interface SeriesPickerProps {
  /** undefined while the series load. */
  series: readonly Series[] | undefined;
  seriesId: string | null;
  onSelect: (id: string) => void;
  /** Placeholder while the series load (default 'Loading series...'). */
  loadingPlaceholder?: string;
  /** Placeholder when the author has no series (default 'Select series'). */
  emptyPlaceholder?: string;
  /** Width from the xs breakpoint up (default 240). */
  width?: number;
  /** Side of the chosen option's check mark (default right). */
  checkIconPosition?: 'left' | 'right';
  'data-testid'?: string;
}

/** The 'Series' selector of a series-scoped page; disabled while loading and when there are none. */
export function SeriesPicker({
  series,
  seriesId,
  onSelect,
  loadingPlaceholder = 'Loading series...',
  emptyPlaceholder = 'Select series',
  width = 240,
  checkIconPosition = 'right',
  ...rest
}: SeriesPickerProps) {
  const options = useMemo(() => (series ?? []).map((s) => ({ value: s.id, label: s.title || 'Untitled series' })), [series]);
  const placeholder = series === undefined ? loadingPlaceholder : series.length === 0 ? emptyPlaceholder : 'Select series';
  return (
    <Select
      aria-label="Series"
      placeholder={placeholder}
      data={options}
      value={seriesId}
      onChange={(v) => v && onSelect(v)}
      allowDeselect={false}
      disabled={!series || series.length === 0}
      w={{ base: '100%', xs: width }}
      leftSection={<IconBooks size={16} aria-hidden />}
      comboboxProps={{ withinPortal: true }}
      checkIconPosition={checkIconPosition}
      data-testid={rest['data-testid']}
    />
  );
}
