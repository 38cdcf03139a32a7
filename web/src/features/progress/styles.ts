// Mantine CSS of the components the progress screens draw at once (the shell imports the rest;
// the dashboard's lazy forms import theirs, components/ThirtyDays.tsx).
// Imported by the screens' own modules, not by index.ts: the build skips a feature index's own
// imports when a route takes a screen through it (the re-export is followed straight to the
// screen), so CSS imported there never loaded (web/scripts/feature-index.test.ts).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Card.layer.css';
