import './styles';
/**
 * /backups (docs/server.md#backups): download everything at any time, restore an archive into this
 * account, and the backups the server keeps on the plan's schedule. Needs the server: offline, it
 * says so.
 */
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconWifiOff } from '@tabler/icons-react';
import { PageHeader } from '@/components/PageHeader';
import { useOnline } from '@/lib/useOnline';
import { RestorePanel } from './components/RestorePanel';
import { SnapshotList } from './components/SnapshotList';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={2} fz="lg" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

export function BackupsScreen() {
  const online = useOnline();
  return (
    <>
      <PageHeader title="Backups" subtitle="Everything you write, yours to keep and to bring back" />
      <Stack gap="lg" maw={960}>
        {!online ? (
          <Alert icon={<IconWifiOff size={18} />} color="gray" variant="light" title="You are offline">
            Backups are made and restored by the server. Exports of your manuscripts work offline from each series’ Export page.
          </Alert>
        ) : null}
        <Section title="Download everything">
          <Stack gap="sm" align="flex-start">
            <Text size="sm" c="dimmed">
              One archive (.zip) of every series you own: chapters with their history, books, characters, relationships, places and the timeline — as data Chronicler restores, and as Markdown you can read anywhere.
            </Text>
            <Button component="a" href="/api/backup" download leftSection={<IconDownload size={16} aria-hidden />} disabled={!online}>
              Download backup
            </Button>
          </Stack>
        </Section>
        <Section title="Restore">
          <RestorePanel online={online} />
        </Section>
        <Section title="Server backups">
          <SnapshotList online={online} />
        </Section>
      </Stack>
    </>
  );
}
