import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';

export { ChapterEditor } from './ChapterEditor';
