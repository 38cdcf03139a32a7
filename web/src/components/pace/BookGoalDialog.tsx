// Loaded on first open (lazyGoalDialog.ts): its controls' CSS comes with it.
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import { useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconWifiOff, IconX } from '@tabler/icons-react';
import { ALL_WEEKDAYS, BOOK_GOAL_MESSAGES, type Book, MAX_DAYS_OFF, MAX_TARGET_WORDS, bookGoalOf, deadlineProblem } from '@chronicler/schema';
import { FeatureGate } from '@/components/FeatureGate';
import { withError } from '@/lib/copy/toasts';
import { Modal } from '@/lib/first-load';
import { useMutators } from '@/lib/sync';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { useWritingToday } from '@/lib/usePace';
import { GOAL_TOASTS, WEEKDAY_LABELS, dayLabel } from './paceCopy';

/** Monday first, as a week reads in a diary. */
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

interface Errors {
  targetWords?: string;
  deadline?: string;
  writingDays?: string;
  dayOff?: string;
}

export interface BookGoalDialogProps {
  /** The book whose goal is edited; the dialog is open while it is not null. */
  book: Book | null;
  /** The book's words now (its chapters outside the Trash). */
  words: number;
  /** Whether the series' owner plan is the author's own (a shared series is judged by the server). */
  owned: boolean;
  onClose: () => void;
}

/**
 * A book's goal (docs/decisions/0018-pace-predictions.md): a target, an optional deadline, the
 * writing days of the week and single days off. Checked here as the server checks it (a deadline
 * in the past, a target below the words already written); saved through the mutators, so offline
 * too, and synced.
 */
export default function BookGoalDialog({ book, words, owned, onClose }: BookGoalDialogProps) {
  return (
    <Modal opened={book !== null} onClose={onClose} title={book ? `Goal for ${book.title}` : 'Goal'} centered radius="md" size="lg">
      {book ? (
        owned ? (
          <FeatureGate feature="pacePredictions">
            <GoalForm key={book.id} book={book} words={words} onClose={onClose} />
          </FeatureGate>
        ) : (
          <GoalForm key={book.id} book={book} words={words} onClose={onClose} />
        )
      ) : null}
    </Modal>
  );
}

function GoalForm({ book, words, onClose }: { book: Book; words: number; onClose: () => void }) {
  const mutators = useMutators();
  const online = useOnline();
  const today = useWritingToday();
  const goal = bookGoalOf(book);
  const [target, setTarget] = useState<number | ''>(goal?.targetWords ?? '');
  const [deadline, setDeadline] = useState(goal?.deadline ?? '');
  const [writingDays, setWritingDays] = useState<string[]>((goal?.writingDays ?? ALL_WEEKDAYS).map(String));
  const [daysOff, setDaysOff] = useState<string[]>([...(goal?.daysOff ?? [])]);
  const [newDayOff, setNewDayOff] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const check = (): Errors => {
    const found: Errors = {};
    if (target === '') found.targetWords = BOOK_GOAL_MESSAGES.targetRequired;
    else if (target < 1) found.targetWords = BOOK_GOAL_MESSAGES.targetMin;
    else if (target > MAX_TARGET_WORDS) found.targetWords = BOOK_GOAL_MESSAGES.targetMax;
    else if (target < words) found.targetWords = BOOK_GOAL_MESSAGES.targetBelowWritten(words);
    if (deadline !== '' && deadline !== goal?.deadline && deadlineProblem(deadline, today) === 'past') {
      found.deadline = BOOK_GOAL_MESSAGES.deadlinePast;
    }
    if (writingDays.length === 0) found.writingDays = BOOK_GOAL_MESSAGES.writingDaysEmpty;
    return found;
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0 || target === '') return;
    setSaving(true);
    try {
      await mutators.books.update(book.id, {
        targetWords: target,
        deadline: deadline === '' ? null : deadline,
        writingDays: writingDays.map(Number),
        daysOff,
      });
      toast.show(GOAL_TOASTS.saved);
      onClose();
    } catch (error) {
      toast.show(withError(GOAL_TOASTS.failed, error));
    } finally {
      setSaving(false);
    }
  };

  const clear = async () => {
    setSaving(true);
    try {
      await mutators.books.update(book.id, { targetWords: null, deadline: null });
      toast.show(GOAL_TOASTS.cleared);
      onClose();
    } catch (error) {
      toast.show(withError(GOAL_TOASTS.failed, error));
    } finally {
      setSaving(false);
    }
  };

  const addDayOff = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDayOff)) {
      setErrors((e) => ({ ...e, dayOff: BOOK_GOAL_MESSAGES.deadlineInvalid }));
      return;
    }
    if (daysOff.length >= MAX_DAYS_OFF) {
      setErrors((e) => ({ ...e, dayOff: BOOK_GOAL_MESSAGES.daysOffMax }));
      return;
    }
    setDaysOff((d) => [...new Set([...d, newDayOff])].sort());
    setNewDayOff('');
    setErrors((e) => ({ ...e, dayOff: undefined }));
  };

  return (
    <form onSubmit={save} noValidate aria-label={`Goal for ${book.title}`}>
      <Stack gap="md">
        {!online ? (
          <Alert variant="light" color="gray" icon={<IconWifiOff size={16} aria-hidden />}>
            You are offline: the goal is kept on this device and syncs when you are back online.
          </Alert>
        ) : null}
        <NumberInput
          label="Target word count"
          description={`This book has ${words.toLocaleString('en-US')} words.`}
          required
          min={1}
          max={MAX_TARGET_WORDS}
          step={1000}
          thousandSeparator=","
          allowDecimal={false}
          allowNegative={false}
          value={target}
          error={errors.targetWords}
          onChange={(v) => setTarget(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
          data-autofocus
        />
        <TextInput
          type="date"
          label="Deadline"
          description="Optional: the last day the book should be finished on."
          value={deadline}
          min={today}
          error={errors.deadline}
          onChange={(e) => setDeadline(e.currentTarget.value)}
        />
        <Checkbox.Group label="Writing days" description="The days of the week you write this book on." value={writingDays} onChange={setWritingDays} error={errors.writingDays}>
          <Group gap="sm" mt={6}>
            {WEEK_ORDER.map((d) => (
              <Checkbox key={d} value={String(d)} label={WEEKDAY_LABELS[d]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Stack gap={6}>
          <Group align="flex-end" gap="xs">
            <TextInput
              type="date"
              label="Days off"
              description="Single days you will not write (a holiday, a trip)."
              value={newDayOff}
              min={today}
              error={errors.dayOff}
              onChange={(e) => setNewDayOff(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addDayOff();
                }
              }}
              style={{ flex: 1 }}
            />
            <Button variant="default" leftSection={<IconPlus size={14} aria-hidden />} onClick={addDayOff}>
              Add day off
            </Button>
          </Group>
          {daysOff.length > 0 ? (
            <Group gap={6} component="ul" role="list" aria-label="Days off" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {daysOff.map((day) => (
                <Group key={day} component="li" gap={2} wrap="nowrap" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 999, paddingInline: 8 }}>
                  <Text size="sm">{dayLabel(day)}</Text>
                  <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Remove day off ${dayLabel(day)}`} onClick={() => setDaysOff((d) => d.filter((x) => x !== day))}>
                    <IconX size={12} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
            </Group>
          ) : null}
        </Stack>
        <Group justify="space-between" gap="sm">
          {goal ? (
            <Button variant="subtle" color="red" onClick={() => void clear()} disabled={saving}>
              Remove goal
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save goal
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
