import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Center, Text } from '@mantine/core';

/** The browser could not open the user's IndexedDB (private window, blocked site data). */
export function StorageUnavailable({ reason }: { reason: string }) {
  return (
    <Center mih="60vh" p="md">
      <Alert color="red" variant="light" title="Chronicler could not open its storage on this device" maw={520} role="alert">
        <Text size="sm">
          Your work is stored in this browser. It could not be opened ({reason}). Private windows and some browser settings
          block storage; try a normal window or allow site data, then reload.
        </Text>
        <Button mt="sm" variant="light" color="red" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Alert>
    </Center>
  );
}
