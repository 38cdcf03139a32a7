import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { GIFT_MESSAGES, isGiftCode, normalizeGiftCode } from '@chronicler/schema';
import { api } from '@/lib/api';
import { BILLING_TOASTS, giftRedeemedToast } from '@/lib/copy/toasts';
import { withServerMessage } from './copy';
import { toast } from '@/lib/toast';

/** "Have a gift code?": one month of Wordsmith, redeemed on the server. */
export function GiftRedeemForm({ online, onRedeemed }: { online: boolean; onRedeemed(): void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!online) {
      toast.show(BILLING_TOASTS.needsConnection);
      return;
    }
    const normalized = normalizeGiftCode(code);
    if (!isGiftCode(normalized)) {
      setError(GIFT_MESSAGES.invalid);
      return;
    }
    setError(null);
    setSending(true);
    try {
      const answer = await api.post<{ message: string }>('/api/gifts/redeem', { code: normalized });
      toast.show(giftRedeemedToast(answer.message));
      setCode('');
      onRedeemed();
    } catch (failure) {
      toast.show(withServerMessage(BILLING_TOASTS.giftRedeemFailed, failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper withBorder radius="lg" p="lg" mt="xl" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label="Redeem a gift code">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Have a gift code?"
          description="Redeem it for one month of The Wordsmith."
          placeholder="XXXX-XXXX-XXXX"
          leftSection={<IconGift size={16} aria-hidden />}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={error}
          maxLength={40}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button type="submit" loading={sending} disabled={code.trim() === ''}>
          Redeem
        </Button>
      </Group>
      {!online ? (
        <Text size="sm" c="dimmed" mt="xs">
          Redeeming needs a connection.
        </Text>
      ) : null}
    </Paper>
  );
}
