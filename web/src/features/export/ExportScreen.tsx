import './styles';
/**
 * /series/{id}/export: the manuscript (or the series bible) out of the device in every format the
 * plan opens, made in a worker with a progress bar, offline as well as online. A preview lists
 * what will be included; the settings can be saved as this series' export profile.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Paper, Progress, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconBooks, IconDownload, IconWifiOff } from '@tabler/icons-react';
import { type ExportProfile, BIBLE_FORMATS, EXPORT_FORMAT_LABELS, planForExportFormat } from '@chronicler/schema';
import { charactersOfSeries, locationsOfSeries, relationshipsOfSeries, timelineOfSeries, worldEntriesOfSeries } from '@chronicler/sync-client';
import { EmptyPanel } from '@/components/EmptyPanel';
import { FeatureGate } from '@/components/FeatureGate';
import { PageHeader } from '@/components/PageHeader';
import { useSession } from '@/lib/session';
import { useDb } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { FormatPicker } from './components/FormatPicker';
import { IncludedPreview } from './components/IncludedPreview';
import { ProfileSettings } from './components/ProfileSettings';
import type { ExportRequest } from './formats/render';
import { useExportSource, useSavedProfile } from './hooks/useExportData';
import { downloadFile, runExport } from './model/run-export';
import { EXPORT_TOASTS } from './model/toasts';

type What = 'manuscript' | 'bible';

function BackLink({ seriesId }: { seriesId: string }) {
  return (
    <Anchor component={Link} to={`/series/${seriesId}`} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Back to series
      </Group>
    </Anchor>
  );
}

export function ExportScreen({ seriesId }: { seriesId: string }) {
  const db = useDb();
  const source = useExportSource(seriesId);
  const saved = useSavedProfile(seriesId);
  const author = useSession((s) => s.user?.displayName ?? '');
  const online = useOnline();
  const [profile, setProfile] = useState<ExportProfile | null>(null);
  const [what, setWhat] = useState<What>('manuscript');
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** What the last export could not print as written (PDF: emoji in black and white, characters no font has). */
  const [notices, setNotices] = useState<string[]>([]);
  const abort = useRef<AbortController | null>(null);

  // The saved profile is the starting point, once; later edits are the author's.
  useEffect(() => {
    if (profile === null && saved !== undefined) setProfile(saved);
  }, [saved, profile]);
  useEffect(() => () => abort.current?.abort(), []);

  const bookIds = useMemo(() => new Set(source?.books.map((b) => b.id) ?? []), [source]);
  if (source === undefined || profile === null) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading export">
        <Skeleton height={36} width="40%" />
        <Skeleton height={240} radius="md" mt="lg" />
      </Stack>
    );
  }
  if (source === null) {
    return (
      <>
        <PageHeader title="Export" />
        <EmptyPanel icon={<IconBooks size={28} />} title="Series not found" description="This series does not exist on this device, or it was deleted." actions={<Button component={Link} to="/series">All series</Button>} />
      </>
    );
  }

  // Books chosen in a saved profile that no longer exist are ignored; null means all.
  const chosen = profile.bookIds === null ? null : profile.bookIds.filter((id) => bookIds.has(id));
  const books = source.books.filter((b) => chosen === null || chosen.includes(b.id));
  const chapters = source.chapters.filter((c) => books.some((b) => b.id === c.bookId));
  const formats = what === 'bible' ? BIBLE_FORMATS : undefined;
  const format = formats && !(formats as readonly string[]).includes(profile.format) ? 'pdf' : profile.format;
  const nothing = what === 'manuscript' && chapters.length === 0;
  const running = progress !== null;

  async function start() {
    if (!source || !profile) return;
    setFailure(null);
    setNotices([]);
    setProgress(0);
    const controller = new AbortController();
    abort.current = controller;
    const effective = { ...profile, format, bookIds: chosen };
    try {
      const request: ExportRequest =
        what === 'manuscript'
          ? { what, series: source.series, author, books: source.books, chapters: source.chapters, profile: effective }
          : {
              what,
              series: source.series,
              author,
              characters: await charactersOfSeries(db, seriesId),
              relationships: await relationshipsOfSeries(db, seriesId),
              locations: await locationsOfSeries(db, seriesId),
              events: await timelineOfSeries(db, seriesId),
              worldEntries: await worldEntriesOfSeries(db, seriesId),
              books: source.books,
              chapters: source.chapters,
              profile: effective,
            };
      const file = await runExport(request, setProgress, controller.signal);
      downloadFile(file);
      setNotices(file.notices);
      toast.show(EXPORT_TOASTS.exported(file.fileName, file.notices));
    } catch (error) {
      if (controller.signal.aborted) return;
      setFailure(EXPORT_TOASTS.failed(error).message ?? '');
      toast.show(EXPORT_TOASTS.failed(error));
    } finally {
      if (abort.current === controller) abort.current = null;
      setProgress(null);
    }
  }

  async function saveProfile() {
    if (!profile) return;
    try {
      await db.exportProfiles.put({ seriesId, profile: { ...profile, bookIds: chosen }, updatedAt: Date.now() });
      toast.show(EXPORT_TOASTS.profileSaved);
    } catch (error) {
      toast.show(EXPORT_TOASTS.profileFailed(error));
    }
  }

  return (
    <>
      <PageHeader title="Export" subtitle={source.series.title} actions={<BackLink seriesId={seriesId} />} />
      <Stack gap="lg" maw={1100}>
        {!online ? (
          <Alert icon={<IconWifiOff size={18} />} color="gray" variant="light" title="You are offline">
            Exports are made on this device, so they work offline too.
          </Alert>
        ) : null}
        <SegmentedControl
          aria-label="What to export"
          value={what}
          onChange={(v) => setWhat(v as What)}
          data={[
            { value: 'manuscript', label: 'Manuscript' },
            { value: 'bible', label: 'Series bible' },
          ]}
          disabled={running}
          maw={360}
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder radius="md" p="md">
            <IncludedPreview
              what={what}
              allBooks={source.books}
              chapters={source.chapters}
              chosen={chosen}
              disabled={running}
              onChoose={(ids) => setProfile({ ...profile, bookIds: ids })}
            />
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <FormatPicker value={format} formats={formats} disabled={running} onChange={(f) => setProfile({ ...profile, format: f })} />
              <FeatureGate requiredTier={planForExportFormat(format)}>
                <Stack gap="md">
                  <ProfileSettings profile={profile} disabled={running} onChange={setProfile} />
                  {running ? (
                    <Stack gap={4}>
                      <Progress value={Math.round((progress ?? 0) * 100)} aria-label="Export progress" animated />
                      <Group justify="space-between">
                        <Text size="sm" c="dimmed">Making your {EXPORT_FORMAT_LABELS[format]}… {Math.round((progress ?? 0) * 100)}%</Text>
                        <Button variant="subtle" size="xs" onClick={() => abort.current?.abort()}>Cancel</Button>
                      </Group>
                    </Stack>
                  ) : null}
                  {failure ? <Alert color="red" variant="light" title="Export failed">{failure}</Alert> : null}
                  {notices.length > 0 ? (
                    <Alert color="yellow" variant="light" title="About this export">
                      <Stack gap={4}>{notices.map((notice) => <Text size="sm" key={notice}>{notice}</Text>)}</Stack>
                    </Alert>
                  ) : null}
                  {nothing ? <Text size="sm" c="dimmed">Nothing to export yet: the chosen books have no chapters.</Text> : null}
                  <Group justify="space-between">
                    <Button variant="default" onClick={() => void saveProfile()} disabled={running}>
                      Save as series profile
                    </Button>
                    <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void start()} loading={running} disabled={nothing}>
                      Export {EXPORT_FORMAT_LABELS[format]}
                    </Button>
                  </Group>
                </Stack>
              </FeatureGate>
            </Stack>
          </Paper>
        </SimpleGrid>
      </Stack>
    </>
  );
}
