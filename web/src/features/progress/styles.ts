// Mantine CSS of the components only the progress screens use (the shell imports the rest).
// Imported by the screens' own modules, not by index.ts: the build skips a feature index's own
// imports when a route takes a screen through it (the re-export is followed straight to the
// screen), so CSS imported there never loaded (web/scripts/feature-index.test.ts).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Chip.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/EmptyState.layer.css';
