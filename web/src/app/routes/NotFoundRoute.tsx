import { Link } from 'react-router';
import { Button, Code, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconHome } from '@tabler/icons-react';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import classes from './NotFoundRoute.module.css';

/** Any other path: "404 Page Not Found" and a short developer-style hint (spec 000 §2). */
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
            Did you forget to add the page to the router? Check the route table in <Code>src/app/routes.tsx</Code>.
          </Text>
          <Button component={Link} to="/" leftSection={<IconHome size={18} />} w="fit-content" radius="md">
            Back to Dashboard
          </Button>
        </Stack>
      </Paper>
    </main>
  );
}
