// Mantine CSS of the components only the import screen uses (the shell imports the rest).
// Imported by the screens' own modules, not by index.ts: the build skips a feature index's own
// imports when a route takes a screen through it (the re-export is followed straight to the
// screen), so CSS imported there never loaded (web/scripts/feature-index.test.ts).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
