// Mantine CSS of the components only the backups screen uses (the shell imports the rest).
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Table.layer.css';

export { BackupsScreen } from './BackupsScreen';
