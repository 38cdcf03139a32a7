// Mantine CSS of the components only the series screens use (the shell imports the rest).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';

export { SeriesScreen } from './components/SeriesScreen';
export { SeriesDetailScreen } from './components/SeriesDetailScreen';
export { NewBookScreen } from './components/NewBookScreen';
// Composed into the dashboard by the app layer (app/routes/DashboardRoute.tsx).
export { EditSeriesDialog } from './components/EditSeriesDialog';
export { ChapterList, chapterEditorPath } from './components/ChapterList';
