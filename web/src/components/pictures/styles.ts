/** Mantine CSS of the components the picture picker and its crop dialog draw beyond the shell's. */
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Slider.layer.css';
import '@mantine/core/styles/Alert.layer.css';
