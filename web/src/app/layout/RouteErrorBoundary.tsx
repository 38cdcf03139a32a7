import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';

function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
}

/** Last-resort screen when a route throws (for example a screen chunk that cannot be loaded). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16, background: 'var(--app-bg)' }}>
      <Paper withBorder shadow="md" radius="lg" p="xl" maw={520}>
        <Stack gap="sm">
          <Title order={1} fz={24}>
            {chunk ? 'This screen is not available offline yet' : 'Something went wrong'}
          </Title>
          <Text c="dimmed">
            {chunk
              ? 'Chronicler could not load this part of the app. Reconnect and reload; your work is kept on this device.'
              : 'An unexpected error stopped this screen. Your work is kept on this device.'}
          </Text>
          {/* Mantine's Code block, as a plain <pre>: this screen is part of every first download. */}
          <Text component="pre" ff="monospace" fz="sm" p="xs" m={0} bg="var(--mantine-color-default-hover)" style={{ whiteSpace: 'pre-wrap', borderRadius: 'var(--mantine-radius-sm)' }}>
            {detail}
          </Text>
          <Button onClick={() => window.location.reload()} w="fit-content">
            Reload
          </Button>
        </Stack>
      </Paper>
    </main>
  );
}
