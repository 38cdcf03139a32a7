// Mantine CSS of the components only the import screen uses (the shell imports the rest).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';

export { ImportScreen } from './ImportScreen';
