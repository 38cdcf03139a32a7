import { Link } from 'react-router';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconHome } from '@tabler/icons-react';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import classes from './NotFoundRoute.module.css';

/**
 * Any other path: "404 Page Not Found" and the spec's short developer-style hint (000 §2), without
 * the names of our source files (authors see this page), and what an author can do.
 */
export default function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <main className={classes.page}>
      <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 40 }} maw={520} w="100%">
        <Stack gap="md">
          <ThemeIcon size={52} radius="xl" variant="light" color="red" aria-hidden>
            <IconAlertTriangle size={28} stroke={1.75} />
          </ThemeIcon>
          <Title order={1} fz={28}>
            404 Page Not Found
          </Title>
          <Text c="dimmed">
            Did you forget to add the page to the router? Check the address, or go back to your dashboard.
          </Text>
          <Button component={Link} to="/" leftSection={<IconHome size={18} />} w="fit-content" radius="md">
            Back to Dashboard
          </Button>
        </Stack>
      </Paper>
    </main>
  );
}
