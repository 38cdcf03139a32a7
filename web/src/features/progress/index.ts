// Mantine CSS of the components only the progress screens use (the shell imports the rest).
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

export { DashboardScreen, type DashboardScreenProps } from './DashboardScreen';
export { DashboardSkeleton } from './DashboardSkeleton';
export { AchievementsScreen } from './AchievementsScreen';
