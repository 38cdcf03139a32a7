import { useState } from 'react';
import { Anchor, Group, Text } from '@mantine/core';
import { Modal } from '@/lib/first-load';

const VERSION_LABEL = 'Chronicler Companion v1.0';

// The footer's help, privacy and terms (000 §2) open here: the app has no such pages, and a link to
// nowhere reads as a bug.
const NOTES = {
  Help: 'Choose a series (and a book, to keep later books out of it), then generate a suggestion of the type you want. In the analysis tab, choose a chapter or paste at least 100 characters: findings are highlighted in the text. Insert a suggestion into your text from its card.',
  Privacy: 'The built-in companion runs on your device and on this server only. Nothing is sent to an AI service unless the operator of this server has configured one; then only a short series bible (the entries your text mentions, the book’s main characters) and the text at hand are sent, never anything from later books.',
  Terms: 'Suggestions are prompts for your own writing: what you write with them is yours. Generated suggestions count against your plan’s daily allowance; analysis is free.',
} as const;

export function CompanionFooter() {
  const [open, setOpen] = useState<keyof typeof NOTES | null>(null);
  return (
    <Group component="footer" justify="space-between" gap="md" pt="md" wrap="wrap" aria-label="Companion footer">
      <Group gap="md">
        {(Object.keys(NOTES) as Array<keyof typeof NOTES>).map((name) => (
          <Anchor key={name} component="button" type="button" size="sm" c="dimmed" onClick={() => setOpen(name)}>
            {name}
          </Anchor>
        ))}
        <Anchor href="mailto:support@chronicler.app" size="sm" c="dimmed">
          Contact
        </Anchor>
      </Group>
      <Text size="xs" c="dimmed" data-testid="companion-version">
        {VERSION_LABEL}
      </Text>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open ?? ''} centered>
        <Text size="sm">{open ? NOTES[open] : ''}</Text>
      </Modal>
    </Group>
  );
}
