import { RecentActivityPanel } from '@/components/RecentActivityPanel';
import './styles';
import { Suspense, lazy, memo, useDeferredValue, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Button, Grid, Paper, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { type Book, type Chapter, type Series, achievementsForPlan, hasFeature, welcomeBack } from '@chronicler/schema';
import { type ChroniclerDb, chaptersOfBook, chaptersOfSeries, currentBook } from '@chronicler/sync-client';
import { lastCaretChapter, localCarets } from '@/lib/caretMemory';
import { PageHeader } from '@/components/PageHeader';
import { TOASTS } from '@/lib/copy/toasts';
import { useStagedReveal } from '@/lib/first-load';
import { useSession } from '@/lib/session';
import { useDb, useFirstSyncSettled } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useCurrentSeries } from '@/lib/useCurrentSeries';
import { BadgeProgression, MyBadges, RecentAchievements, YourBadges } from './components/BadgePanels';
import { CurrentBookPanel, CurrentProjectPanel } from './components/ProjectPanels';
import { StreakCard, WordsTodayCard } from './components/StatCards';
import { DashboardSkeleton } from './DashboardSkeleton';
import { useProgress } from './hooks/useProgress';

// The 30-day view and the two settings forms (Select, NumberInput, Chip: Floating UI) sit below the
// first screenful: downloaded and drawn after it (docs/web.md#first-load).
const loadThirtyDays = () => import('./components/ThirtyDays');
const ThirtyDayHeatmap = lazy(() => loadThirtyDays().then((m) => ({ default: m.ThirtyDayHeatmap })));
const DailyGoalForm = lazy(() => loadThirtyDays().then((m) => ({ default: m.DailyGoalForm })));
const StreakSettingsForm = lazy(() => loadThirtyDays().then((m) => ({ default: m.StreakSettingsForm })));
// The current book's pace (docs/decisions/0018-pace-predictions.md): in the second column, downloaded with it.
const BookPacePanel = lazy(() => import('@/components/pace/BookPacePanel'));
/** The 30-day view's download starts as its step is drawn, after the first screenful's paint. */
const startThirtyDays = (step: number) => {
  if (step === 1) void loadThirtyDays();
};

export interface DashboardScreenProps {
  /** The Writer's Companion panel (the AI feature's); until it is composed, its frame and title. */
  companionPanel?: ReactNode;
  /** The Inspiration Pack's prompt of the day; nothing when absent. */
  promptOfTheDay?: ReactNode;
  /** The Edit Series dialog (the series feature's), open when `series` is not null. */
  renderEditSeries: (series: Series | null, onClose: () => void) => ReactNode;
  /** The current book's chapter list with reorder (the series feature's); may suspend (lazy). */
  renderChapterList: (book: Book, chapters: Chapter[]) => ReactNode;
  /** Where a chapter opens in the editor. */
  chapterPath: (chapter: Pick<Chapter, 'id' | 'bookId' | 'seriesId'>) => string;
  /** Where a book opens in the editor when it has no chapter yet. */
  bookPath: (book: Pick<Book, 'id' | 'seriesId'>) => string;
}

/** The chapter the author last worked on: the most recently updated one. */
/**
 * Where Start Writing goes: the series' chapter the author last wrote in on this device (its caret
 * moved last, in any book), else the current book's chapter changed last.
 */
async function lastWrittenChapter(db: ChroniclerDb, seriesId: string, currentBookChapters: readonly Chapter[]): Promise<Chapter | null> {
  const live = await chaptersOfSeries(db, seriesId);
  const remembered = lastCaretChapter(localCarets, live.map((c) => c.id));
  return live.find((c) => c.id === remembered) ?? lastWorkedChapter(currentBookChapters);
}

export function lastWorkedChapter(chapters: readonly Chapter[]): Chapter | null {
  return chapters.reduce<Chapter | null>((last, c) => (!last || c.updatedAt > last.updatedAt ? c : last), null);
}

function CompanionFrame() {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Writer's Companion" data-testid="companion-frame">
      <Title order={2} fz="md">
        Writer&apos;s Companion
      </Title>
    </Paper>
  );
}

/** The author's home (spec 000 §2 Dashboard), every figure from the local database, live and offline. */
export function DashboardScreen({ companionPanel, promptOfTheDay, renderEditSeries, renderChapterList, chapterPath, bookPath }: DashboardScreenProps) {
  const db = useDb();
  const displayName = useSession((s) => s.user?.displayName);
  const { series } = useCurrentSeries();
  const { figures, plan, now } = useProgress();
  const [editing, setEditing] = useState(false);
  const seriesId = series?.id ?? null;
  // null: the series has no current book; undefined: still reading.
  const book = useLiveQuery(async () => (seriesId ? ((await currentBook(db, seriesId)) ?? null) : null), [db, seriesId]);
  const bookId = book?.id ?? null;
  const chapters = useLiveQuery(async () => (bookId ? chaptersOfBook(db, bookId) : []), [db, bookId]);

  const firstSyncSettled = useFirstSyncSettled();

  // The outline stays until every panel can draw from the local database at once (and, on a device
  // that has never synced, until the first page of the author's data has arrived): panels filling
  // in one by one pushed the ones below them down the page (a layout shift of 0.5).
  const loaded = series !== undefined && figures !== undefined && (seriesId === null || (book !== undefined && (bookId === null || chapters !== undefined)));
  // The switch from the outline is itself rendered as a transition (in slices): the first render
  // with everything read was one ~30 ms task, ~120 ms on a phone.
  const ready = useDeferredValue(loaded && firstSyncSettled);
  // The rest of the page is drawn once the first screenful is, in three steps — the 30-day view,
  // then the two forms closing the first column, then the whole second column (below the first on a
  // phone) — each after the previous one has painted (lib/first-load useStagedReveal): the view and
  // the forms together were one ~18 ms commit, ×4 on a phone.
  const stage = useStagedReveal(ready, 3, startThirtyDays);

  // What the panels show changes many times while the first pull lands (each page, the author's
  // record, the sync status) and at every save: the panels (memoised) are redrawn with the deferred
  // values, as a transition React renders in slices — redrawn at once, the whole dashboard was a
  // 15–25 ms task per change, ×4 on a phone. In the deferred render (and the first
  // screenful's, itself deferred) these are the latest values.
  const shownName = useDeferredValue(displayName);
  const shownSeries = useDeferredValue(series);
  const shownFigures = useDeferredValue(figures);
  const shownPlan = useDeferredValue(plan);
  const shownNow = useDeferredValue(now);
  const shownBook = useDeferredValue(book);
  const shownChapters = useDeferredValue(chapters);

  if (!ready) return <StillSkeleton displayName={displayName} />;

  return (
    <>
      <DashboardPanels
        displayName={shownName}
        series={shownSeries}
        figures={shownFigures}
        plan={shownPlan}
        now={shownNow}
        book={shownBook}
        chapters={shownChapters}
        stage={stage}
        onEdit={setEditing}
        companionPanel={companionPanel}
        promptOfTheDay={promptOfTheDay}
        renderChapterList={renderChapterList}
        chapterPath={chapterPath}
        bookPath={bookPath}
      />
      {renderEditSeries(editing && series ? series : null, () => setEditing(false))}
    </>
  );
}

/**
 * The outline while the panels wait: DashboardScreen renders at every change while the first pull
 * lands (urgently for the sync status' store), and redrawing the outline each time was ~5–8 ms of
 * a phone's task.
 */
const StillSkeleton = memo(DashboardSkeleton);

interface DashboardPanelsProps extends Omit<DashboardScreenProps, 'renderEditSeries'> {
  displayName: string | undefined;
  series: Series | null | undefined;
  figures: ReturnType<typeof useProgress>['figures'];
  plan: ReturnType<typeof useProgress>['plan'];
  now: Date;
  book: Book | null | undefined;
  chapters: Chapter[] | undefined;
  /** 0: the first screenful; 1: and the 30-day view; 2: and the forms; 3: and the second column. */
  stage: number;
  onEdit: (editing: boolean) => void;
}

/** The dashboard's panels, redrawn only when what they show changes (DashboardScreen). */
const DashboardPanels = memo(function DashboardPanels({
  displayName,
  series,
  figures,
  plan,
  now,
  book,
  chapters,
  stage,
  onEdit,
  companionPanel,
  promptOfTheDay,
  renderChapterList,
  chapterPath,
  bookPath,
}: DashboardPanelsProps) {
  const navigate = useNavigate();
  const db = useDb();
  const catalogue = achievementsForPlan(plan);
  const earnedIds = new Set(figures?.earned.map((e) => e.achievement.id) ?? []);

  const startWriting = () => {
    if (!series) {
      toast.show(TOASTS.noActiveSeries);
      return;
    }
    const seriesId = series.id;
    void lastWrittenChapter(db, seriesId, chapters ?? []).then((last) => {
      if (last) navigate(chapterPath(last));
      else if (book) navigate(bookPath(book));
      else navigate(`/series/${seriesId}`);
      toast.show(TOASTS.readyToWrite);
    });
  };

  const edit = () => {
    if (!series) toast.show(TOASTS.noActiveSeries);
    else onEdit(true);
  };

  const thirtyDays = stage >= 1;
  const forms = stage >= 2;
  const secondColumn = stage >= 3;

  return (
    <>
      <PageHeader
        title={welcomeBack(displayName)}
        subtitle="Your writing journey continues today"
        actions={
          <Button leftSection={<IconPencil size={18} />} onClick={startWriting} disabled={series === undefined}>
            Start Writing
          </Button>
        }
      />
      {promptOfTheDay ?? null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            {figures ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <WordsTodayCard words={figures.wordsToday} trend={figures.trend} goal={figures.goal} />
                <StreakCard streak={figures.streak} />
              </SimpleGrid>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }} aria-busy="true">
                <Skeleton height={120} radius="md" />
                <Skeleton height={120} radius="md" />
              </SimpleGrid>
            )}
            <YourBadges earned={figures?.earned ?? []} />
            {series === undefined ? <Skeleton height={140} radius="md" /> : <CurrentProjectPanel series={series} onEdit={edit} />}
            {thirtyDays && figures && hasFeature(plan, 'thirtyDayStreak') ? <ThirtyDayHeatmap days={figures.lastThirtyDays} goal={figures.goal} /> : null}
            {forms && figures && hasFeature(plan, 'writingChallenges') ? <DailyGoalForm key={figures.goal ?? 'none'} goal={figures.goal} /> : null}
            {forms && figures ? <StreakSettingsForm key={figures.settings?.rev ?? 0} settings={figures.settings} /> : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          {secondColumn ? (
            <Stack gap="lg" data-testid="dashboard-second-column">
              <CurrentBookPanel series={series ?? null} book={series ? book : null} chapters={chapters} renderChapterList={renderChapterList} />
              <RecentActivityPanel seriesId={series?.id ?? null} />
              {series && book ? (
                <Suspense fallback={<Skeleton height={140} radius="md" />}>
                  <BookPacePanel series={series} book={book} />
                </Suspense>
              ) : null}
              {companionPanel ?? <CompanionFrame />}
              <RecentAchievements earned={figures?.earned ?? []} now={now} />
              <BadgeProgression catalogue={catalogue} earnedIds={earnedIds} />
              <MyBadges earned={figures?.earned ?? []} />
            </Stack>
          ) : (
            // Until drawn, the column says it is coming: never half a screen shown as if it were all.
            <Stack gap="lg" aria-busy="true" aria-label="Loading" data-testid="dashboard-second-column-pending">
              <Skeleton height={220} radius="md" />
              <Skeleton height={160} radius="md" />
            </Stack>
          )}
        </Grid.Col>
      </Grid>
    </>
  );
});
