/**
 * The pieces a series-scoped list page (Characters, World, Timeline) is built from: the header with
 * the series picker, the offline note, the no-series, empty and loading states, the search box and
 * the paged card grid. Every page keeps its own tabs, cards and dialogs.
 */
export { EmptyPanel } from '../EmptyPanel';
export { CARD_COLUMNS, LoadingGrid } from './LoadingGrid';
export { NoSeriesPanel } from './NoSeriesPanel';
export { OfflineBadge, OfflineNote } from './OfflineNote';
export { SearchField } from './SearchField';
export { SeriesListHeader, type SeriesListHeaderProps } from './SeriesListHeader';
export { SeriesPicker, type SeriesPickerProps } from './SeriesPicker';
export { ShowMore } from './ShowMore';
export { usePagedSearch } from './usePagedSearch';
