export { SeriesScreen } from './components/SeriesScreen';
export { SeriesDetailScreen } from './components/SeriesDetailScreen';
export { TrashScreen } from './components/TrashScreen';
export { NewBookScreen } from './components/NewBookScreen';
// Composed into the dashboard by the app layer (app/routes/DashboardRoute.tsx).
export { EditSeriesDialog } from './components/EditSeriesDialog';
export { ChapterList, chapterEditorPath } from './components/ChapterList';
