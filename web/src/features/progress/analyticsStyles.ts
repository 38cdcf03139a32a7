// Mantine CSS of the analytics page (the shell imports the common components'): its charts, the
// tables read to screen readers, the period switch and the notices. Imported by the screen's own
// module, never by index.ts (styles.ts explains why), so it loads with the page only.
import './styles';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/charts/styles.layer.css';
