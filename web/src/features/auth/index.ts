// Mantine CSS of the components only the account screens use (the shell imports the rest).
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Alert.layer.css';

export { AuthScreen } from './AuthScreen';
export { LoginScreen } from './LoginScreen';
export { RegisterScreen } from './RegisterScreen';
