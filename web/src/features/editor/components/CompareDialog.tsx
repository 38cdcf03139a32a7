/**
 * Comparing the current text with another version — a conflict copy kept by the server, or text
 * saved elsewhere while the author was typing here — and choosing: keep the current text, use the
 * other version, or edit a merge of both. Nothing is dismissed until the author chooses.
 */
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconGitMerge } from '@tabler/icons-react';
import { Modal } from '@/lib/first-load';
import type { Comparand } from '../hooks/editor-store';
import { unionMerge } from '../model/text-diff';
import { DiffView } from './DiffView';
import type { ProseEditorHandle } from './ProseEditor';
import classes from '../editor.module.css';

const ProseEditor = lazy(() => import('./ProseEditor'));

export interface CompareDialogProps {
  target: Comparand | null;
  currentTitle: string;
  /** The editor's text at the moment the dialog opened. */
  currentText: string;
  onClose: () => void;
  onKeepMine: (target: Comparand) => Promise<boolean>;
  onKeepTheirs: (target: Comparand) => Promise<boolean>;
  onSaveMerge: (target: Comparand, merged: { title: string; content: string }) => Promise<boolean>;
}

function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function describeTarget(target: Comparand) {
  if (target.kind === 'conflict') {
    const when = formatWhen(target.conflict.createdAt);
    return {
      other: target.conflict,
      leftLabel: 'Current text',
      rightLabel: when ? `Conflict copy (${when})` : 'Conflict copy',
      keepMine: 'Keep current text',
      keepTheirs: 'Use conflict copy',
      intro:
        target.conflict.reason === 'edited-after-delete'
          ? 'This text was saved after the chapter had been deleted elsewhere. Compare it with the current text and choose what to keep.'
          : 'Two saves of this chapter changed the same passage, so the server kept both. Compare them and choose what to keep — nothing is removed until you do.',
    };
  }
  return {
    other: target.chapter,
    leftLabel: 'Your text',
    rightLabel: 'Saved elsewhere',
    keepMine: 'Keep my text',
    keepTheirs: 'Use the saved text',
    intro:
      'While you were writing, this chapter was saved on another device or by a collaborator, and both changed the same passage. Choose what to keep.',
  };
}

export function CompareDialog({ target, currentTitle, currentText, onClose, onKeepMine, onKeepTheirs, onSaveMerge }: CompareDialogProps) {
  const small = useMediaQuery('(max-width: 48em)');
  const [mode, setMode] = useState<'compare' | 'merge'>('compare');
  const [busy, setBusy] = useState<null | 'mine' | 'theirs' | 'merge'>(null);
  const [mergeTitle, setMergeTitle] = useState(currentTitle);
  const mergeEditor = useRef<ProseEditorHandle | null>(null);

  useEffect(() => {
    setMode('compare');
    setBusy(null);
    setMergeTitle(currentTitle);
    // A new target: start over. The title is read when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  const info = target ? describeTarget(target) : null;
  const proposal = useMemo(
    () => (target ? unionMerge(currentText, target.kind === 'conflict' ? target.conflict.content : target.chapter.content) : ''),
    [currentText, target],
  );

  const run = async (which: 'mine' | 'theirs' | 'merge') => {
    if (!target) return;
    setBusy(which);
    let ok = false;
    if (which === 'mine') ok = await onKeepMine(target);
    else if (which === 'theirs') ok = await onKeepTheirs(target);
    else ok = await onSaveMerge(target, { title: mergeTitle, content: mergeEditor.current?.getText() ?? proposal });
    setBusy(null);
    if (ok) onClose();
  };

  return (
    <Modal
      opened={target !== null}
      onClose={() => (busy ? undefined : onClose())}
      title="Compare versions"
      closeButtonProps={{ 'aria-label': 'Close the comparison' }}
      size="min(72rem, 100%)"
      fullScreen={small}
      centered
    >
      {info && target ? (
        <Stack gap="md">
          <Text size="sm">{info.intro}</Text>
          {info.other.title !== currentTitle ? (
            <Alert variant="light" color="blue" title="The titles differ too">
              {info.leftLabel}: “{currentTitle}” — {info.rightLabel}: “{info.other.title}”
            </Alert>
          ) : null}
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value as 'compare' | 'merge')}
            data={[
              { value: 'compare', label: 'Compare' },
              { value: 'merge', label: 'Edit a merge' },
            ]}
            aria-label="Compare or edit a merge"
            w="fit-content"
          />
          {mode === 'compare' ? (
            <DiffView left={currentText} right={info.other.content} leftLabel={info.leftLabel} rightLabel={info.rightLabel} />
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                Both versions are combined below: shared paragraphs once, differing ones one after the other. Edit it into the
                text you want, then save it.
              </Text>
              <TextInput label="Merged title" value={mergeTitle} onChange={(e) => setMergeTitle(e.currentTarget.value)} />
              <Text component="label" size="sm" fw={500}>
                Merged text
              </Text>
              <Suspense fallback={<Loader size="sm" />}>
                <div className={classes.mergeArea} data-testid="merge-area">
                  <ProseEditor
                    className={classes.mergeEditor}
                    initialText={proposal}
                    label="Merged text"
                    placeholder="The merged chapter text"
                    onChange={() => undefined}
                    handle={mergeEditor}
                  />
                </div>
              </Suspense>
            </Stack>
          )}
          <Group justify="flex-end" gap="sm" wrap="wrap">
            <Button variant="default" onClick={onClose} disabled={busy !== null}>
              Decide later
            </Button>
            {mode === 'compare' ? (
              <>
                <Button variant="light" onClick={() => void run('mine')} loading={busy === 'mine'} disabled={busy !== null && busy !== 'mine'}>
                  {info.keepMine}
                </Button>
                <Button variant="light" onClick={() => void run('theirs')} loading={busy === 'theirs'} disabled={busy !== null && busy !== 'theirs'}>
                  {info.keepTheirs}
                </Button>
                <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={() => setMode('merge')} disabled={busy !== null}>
                  Edit a merge
                </Button>
              </>
            ) : (
              <Button leftSection={<IconGitMerge size={16} aria-hidden />} onClick={() => void run('merge')} loading={busy === 'merge'}>
                Save merge
              </Button>
            )}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
