// Mantine CSS of the components only the series screens use (the shell imports the rest).
// Imported by the screens' own modules, not by index.ts: the build skips a feature index's own
// imports when a route takes a screen through it (the re-export is followed straight to the
// screen), so CSS imported there never loaded (web/scripts/feature-index.test.ts).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Table.layer.css';
