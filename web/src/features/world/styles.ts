/** Mantine CSS of the components this screen uses beyond the shell's (docs/measurements.md#before-the-code: per component). */
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
