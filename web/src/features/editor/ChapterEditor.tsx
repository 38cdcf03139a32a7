import './styles';
/**
 * The chapter editor screen (spec 001 §2 "Chapter editor"), the route's element:
 * /chapter-editor?id=&bookId=&seriesId=. Behaviour lives in useChapterEditor; this file applies the
 * entry rule and lays the editor out: toolbar, banners, title, book title, badges, the writing
 * area, the side panel on large screens, the comparison dialog, the revision drawer and the leave
 * prompt; in focus mode the writing area alone (useFocusMode, FocusBar).
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useBlocker, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ActionIcon, Alert, Badge, Group, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconBook2, IconDownload, IconUsers } from '@tabler/icons-react';
import type { Chapter } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { EDITOR_SELECT_PARAM } from '@/lib/chapterEditorPath';
import { ConflictBanner, DeletedBanner, DraftBanner, ElsewhereBanner, TrashedBanner } from './components/Banners';
import { CompareDialog } from './components/CompareDialog';
import { EditorBadges } from './components/Counts';
import { EditorToolbar } from './components/EditorToolbar';
import { FocusBar } from './components/FocusBar';
import { LeavePrompt } from './components/LeavePrompt';
import { RestructureActions } from './components/RestructureActions';
import { RevisionDrawer } from './components/RevisionDrawer';
import { SidePanel } from './components/SidePanel';
import { Unavailable, type UnavailableReason } from './components/Unavailable';
import { useSync } from '@/lib/sync';
import { useCaretMemory } from './hooks/useCaretMemory';
import { useFocusMode } from './hooks/useFocusMode';
import { type EditorDeps, useChapterEditor, useEditorState } from './hooks/useChapterEditor';
import { useOnline } from '@/lib/useOnline';
import { usePresence } from '@/lib/usePresence';
import { useSeriesRole } from '@/lib/useSeriesRole';
import { UNTITLED_BOOK, backTarget, editorUrl } from './model/constants';
import { selectedRange } from './model/select-param';
import classes from './editor.module.css';

const ProseEditor = lazy(() => import('./components/ProseEditor'));


interface OpenChapterProps extends EditorDeps {
  chapterId: string | null;
  bookId: string;
  seriesId: string | null;
  /** A new chapter was created: the screen keeps this editor mounted across the URL change. */
  onCreated?: (chapter: Chapter) => void;
}

/**
 * Entry rule (spec 000 §2, 001 §2): with bookId the editor is shown; with only seriesId go to
 * /series?id={seriesId}; with neither go to "/". One editor per chapter; a new chapter keeps its
 * editor (caret, undo history, words typed during the save) when the URL changes to its new id.
 */
export function ChapterEditor() {
  const { db, mutators, engine } = useSync();
  const [params] = useSearchParams();
  const bookId = params.get('bookId');
  const chapterId = params.get('id') || null;
  const seriesId = params.get('seriesId') || null;
  const { key: locationKey } = useLocation();
  const created = useRef(new Map<string, string>());
  if (!bookId) return <Navigate to={seriesId ? `/series?id=${encodeURIComponent(seriesId)}` : '/'} replace />;
  // Each visit to a new-chapter URL is its own editor; once saved, the chapter keeps that editor.
  const key = (chapterId && created.current.get(chapterId)) || chapterId || `new:${bookId}:${locationKey}`;
  return (
    <OpenChapter
      key={key}
      db={db}
      mutators={mutators}
      engine={engine}
      chapterId={chapterId}
      bookId={bookId}
      seriesId={seriesId}
      onCreated={(chapter) => created.current.set(chapter.id, key)}
    />
  );
}

function WritingAreaSkeleton() {
  return (
    <Stack gap="sm" p="xl" aria-hidden>
      <Skeleton height={14} width="92%" />
      <Skeleton height={14} width="86%" />
      <Skeleton height={14} width="95%" />
      <Skeleton height={14} width="60%" />
    </Stack>
  );
}

/** One open chapter: its editor state lives and dies with it (keyed by the screen). */
function OpenChapter({ db, mutators, engine, chapterId, bookId, seriesId, onCreated }: OpenChapterProps) {
  const navigate = useNavigate();
  const allowNavigation = useRef(false);
  const go = useCallback(
    (to: string, replace = false) => {
      allowNavigation.current = true;
      navigate(to, { replace });
      setTimeout(() => {
        allowNavigation.current = false;
      }, 0);
    },
    [navigate],
  );

  const controller = useChapterEditor(
    { db, mutators, engine: engine ?? null },
    {
      chapterId,
      bookId,
      onCreated: (created) => {
        onCreated?.(created);
        go(editorUrl(created.id, bookId, seriesId ?? created.seriesId), true);
      },
    },
  );
  const dirty = useEditorState(controller, (s) => s.dirty);
  const roleState = useSeriesRole(controller.chapter?.seriesId ?? controller.book?.seriesId ?? seriesId);
  // Co-authors with this chapter open now (shared series).
  const present = usePresence(controller.chapter?.id ?? null);
  const online = useOnline();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [compareText, setCompareText] = useState('');
  const [leaving, setLeaving] = useState<null | 'save' | 'discard'>(null);
  const caretMemory = useCaretMemory(controller.chapterId);
  const ready = controller.phase === 'ready';
  // Read once, when the text is there: the caret the author left in this chapter on this device.
  // A search result opens the chapter with its hit selected (EDITOR_SELECT_PARAM); else the caret the author left.
  const [params] = useSearchParams();
  const selectParam = params.get(EDITOR_SELECT_PARAM);
  const initialCaret = useMemo(
    () => (ready ? (selectedRange(selectParam, controller.initialText.length) ?? caretMemory.recall(controller.initialText.length)) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening of the text
    [ready, caretMemory.recall],
  );
  const toolbar = useRef<HTMLDivElement>(null);
  const screen = useRef<HTMLDivElement>(null);
  const focus = useFocusMode(screen);
  const [focusCounts, setFocusCounts] = useState(false);
  // Entering or leaving focus mode moves the text: the caret's line goes to the middle, the text keeps the focus.
  const { editorRef } = controller;
  const focusShown = useRef(focus.on);
  useEffect(() => {
    if (focusShown.current === focus.on) return;
    focusShown.current = focus.on;
    editorRef.current?.centerCaret();
  }, [focus.on, editorRef]);
  const coveredTop = useCallback(() => Math.max(0, toolbar.current?.getBoundingClientRect().bottom ?? 0), []);

  useDocumentTitle(controller.title.trim() || 'Chapter Editor');

  // Leaving with unsaved changes (the back button, a sidebar link, the browser's back) asks first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !allowNavigation.current &&
      controller.store.getState().dirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  const { save, flushDraft, setCompare, getText } = controller;

  // Ctrl/Cmd+S saves; Ctrl/Cmd+F finds in the chapter from anywhere on the screen (in the text, CodeMirror's own key opens it).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 's') {
        event.preventDefault();
        if (controller.store.getState().dirty) void save();
      } else if (key === 'f' && !event.shiftKey && controller.editorRef.current) {
        event.preventDefault();
        controller.editorRef.current.openFind();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller.store, controller.editorRef, save]);

  const openCompare = useCallback(
    (target: Parameters<typeof setCompare>[0]) => {
      setCompareText(getText());
      setCompare(target);
    },
    [getText, setCompare],
  );

  // The hook asks for a comparison when a save meets text saved elsewhere on the same passage.
  useEffect(() => {
    if (controller.compare) setCompareText(getText());
  }, [controller.compare, getText]);

  const saveAndLeave = async () => {
    setLeaving('save');
    const ok = await save({ leaving: true });
    setLeaving(null);
    if (ok && blocker.state === 'blocked') blocker.proceed();
  };

  const leaveWithoutSaving = async () => {
    setLeaving('discard');
    await flushDraft(); // the words stay on this device as a draft, offered when the chapter is opened again
    setLeaving(null);
    if (blocker.state === 'blocked') blocker.proceed();
  };

  const { phase, book } = controller;
  const back = backTarget(book);
  const bookTitle = book?.title.trim() ? book.title : UNTITLED_BOOK;
  // A viewer of a shared series reads only; a role change locks or unlocks at once (collaboration).
  const { canEdit, readOnlyReason } = roleState;
  const offering = controller.offer !== null;
  const locked = offering || !canEdit;

  // Split, merge, move and delete (docs/decisions/0014-trash-and-restructure.md), once the chapter is saved.
  const savedChapter = controller.chapter && !controller.chapter.deletedAt ? controller.chapter : null;
  const restructureActions = (variant: 'menu' | 'buttons', close?: () => void) =>
    savedChapter ? (
      <RestructureActions
        controller={controller}
        chapter={savedChapter}
        disabled={locked}
        variant={variant}
        onMoved={(to) => go(editorUrl(savedChapter.id, to.id, to.seriesId), true)}
        onTrashed={() => navigate(back)}
        {...(close ? { onPicked: close } : {})}
      />
    ) : null;

  const header = (
    <EditorToolbar
      controller={controller}
      ready={phase === 'ready'}
      dirty={dirty}
      online={online}
      offering={locked}
      presence={
        present.length > 0 ? (
          <DeferredTooltip label={`Also in this chapter: ${present.map((p) => p.displayName).join(', ')}`}>
            <Badge variant="light" color="teal" maw="10rem" data-testid="presence" leftSection={<IconUsers size={12} aria-hidden />}>
              {present.length === 1 ? `${present[0]!.displayName} is here` : `${present.length} co-authors here`}
            </Badge>
          </DeferredTooltip>
        ) : null
      }
      actions={
        book ? (
          <>
            {restructureActions('menu')}
            <DeferredTooltip label="Export">
              <ActionIcon variant="default" size="lg" aria-label="Export" onClick={() => navigate(`/series/${book.seriesId}/export`)}>
                <IconDownload size={18} aria-hidden />
              </ActionIcon>
            </DeferredTooltip>
          </>
        ) : null
      }
      phoneActions={(close) => restructureActions('buttons', close)}
      onBack={() => navigate(back)}
      onHistory={() => setHistoryOpen(true)}
      onFocusMode={focus.enter}
      rootRef={toolbar}
    />
  );

  const unavailable: UnavailableReason | null =
    phase === 'error'
      ? { kind: 'error', message: controller.loadError ?? '' }
      : phase === 'missing'
        ? { kind: 'missing', online }
        : ready && roleState.seriesPresent === false
          ? { kind: 'series-gone' }
          : null;
  if (unavailable) {
    return (
      <>
        {header}
        <Unavailable reason={unavailable} onBack={() => navigate(back)} onDashboard={() => navigate('/')} />
      </>
    );
  }
  return (
    <div ref={screen} className={classes.screen} data-focus-mode={focus.on || undefined} data-testid="editor-screen">
      {header}
      {focus.on ? <FocusBar controller={controller} countsShown={focusCounts} onToggleCounts={() => setFocusCounts((shown) => !shown)} onLeave={focus.leave} /> : null}
      <div className={classes.layout}>
        <Stack gap="md" miw={0}>
          {controller.offer ? (
            <DraftBanner offer={controller.offer} onRestore={controller.restoreDraft} onDiscard={controller.discardDraft} />
          ) : null}
          {ready && controller.conflicts.length > 0 ? (
            <ConflictBanner conflicts={controller.conflicts} onCompare={(conflict) => openCompare({ kind: 'conflict', conflict })} />
          ) : null}
          {ready && controller.elsewhere ? (
            <ElsewhereBanner onCompare={() => controller.elsewhere && openCompare({ kind: 'elsewhere', chapter: controller.elsewhere })} />
          ) : null}
          {controller.chapter?.deletedAt ? <DeletedBanner /> : null}
          {controller.chapter && !controller.chapter.deletedAt && controller.chapter.trashedAt ? (
            <TrashedBanner chapterId={controller.chapter.id} disabled={!canEdit} />
          ) : null}
          {ready && !canEdit ? (
            <Alert color="gray" variant="light" title="Read-only" data-testid="read-only-banner">
              {readOnlyReason}
            </Alert>
          ) : null}
          <Paper withBorder radius="lg" className={classes.paper}>
            <Stack gap={6} px={{ base: 'md', sm: 'xl' }} pt="lg" pb="md" className={classes.chapterHead}>
              {ready ? (
                <TextInput
                  variant="unstyled"
                  aria-label="Chapter title"
                  placeholder="Chapter title"
                  value={controller.title}
                  onChange={(e) => controller.setTitle(e.currentTarget.value)}
                  disabled={locked}
                  classNames={{ input: classes.titleInput }}
                  data-testid="chapter-title"
                />
              ) : (
                <Skeleton height={40} width="50%" />
              )}
              <Group gap={6} c="dimmed">
                <IconBook2 size={16} aria-hidden />
                <Text size="sm" c="dimmed" data-testid="book-title">
                  {bookTitle}
                </Text>
              </Group>
              {ready ? <EditorBadges controller={controller} status={controller.status} previous={controller.previous} /> : null}
            </Stack>
            <div className={classes.writingArea}>
              {ready ? (
                <Suspense fallback={<WritingAreaSkeleton />}>
                  <ProseEditor
                    className={classes.prose}
                    initialText={controller.initialText}
                    label="Chapter content"
                    placeholder="Start writing your chapter…"
                    readOnly={locked}
                    onChange={controller.onContentChange}
                    handle={controller.editorRef}
                    initialCaret={initialCaret}
                    autoFocus={selectedRange(selectParam, controller.initialText.length) !== null}
                    onCaretMove={caretMemory.onCaretMove}
                    onCaretMarks={controller.onCaretMarks}
                    coveredTop={coveredTop}
                    typewriter={focus.on}
                  />
                </Suspense>
              ) : (
                <WritingAreaSkeleton />
              )}
            </div>
          </Paper>
        </Stack>
        {ready ? <SidePanel controller={controller} disabled={locked} /> : null}
      </div>

      <CompareDialog
        target={controller.compare}
        currentTitle={controller.title}
        currentText={compareText}
        onClose={() => setCompare(null)}
        onKeepMine={controller.keepMine}
        onKeepTheirs={controller.keepTheirs}
        onSaveMerge={controller.saveMerged}
      />

      <RevisionDrawer
        opened={historyOpen}
        onClose={() => setHistoryOpen(false)}
        chapterId={controller.chapterId}
        online={online}
        {...(controller.chapter ? { savedRev: controller.chapter.rev } : {})}
        getCurrentText={getText}
        onRestore={controller.restoreRevision}
      />

      <LeavePrompt
        opened={blocker.state === 'blocked'}
        leaving={leaving}
        onStay={() => blocker.reset?.()}
        onDiscard={() => void leaveWithoutSaving()}
        onSave={() => void saveAndLeave()}
      />
    </div>
  );
}
