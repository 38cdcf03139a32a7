// Mantine CSS of the components only the collaboration screen uses (the shell imports the rest).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Loader.layer.css';

/** Collaboration (issue 13): the /collaboration screen. */
export { CollaborationScreen } from './components/CollaborationScreen';
