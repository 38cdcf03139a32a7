import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { type Entitlement, type PlanName, SUPPORT_LIMITS, activeEntitlement, daysRemaining, hasFeature, supportRequestBodySchema } from '@chronicler/schema';
import { api } from '@/lib/api';
import { BILLING_TOASTS } from '@/lib/copy/toasts';
import { withServerMessage } from './copy';
import { toast } from '@/lib/toast';

interface SentRequest {
  id: string;
  subject: string;
  createdAt: string;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Priority support: the remaining days of Premium Support (or the plan that includes it) and the request form. */
export function SupportPanel({ plan, entitlements, online }: { plan: PlanName; entitlements: readonly Entitlement[]; online: boolean }) {
  const now = Date.now();
  const support = activeEntitlement(entitlements, 'premium-support', now);
  const fromPlan = hasFeature(plan, 'prioritySupport');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SentRequest[]>([]);
  const active = support !== undefined || fromPlan;

  useEffect(() => {
    if (!active || !online) return;
    let live = true;
    api.get<SentRequest[]>('/api/support-requests').then(
      (rows) => live && setSent(rows),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [active, online]);

  if (!active) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = supportRequestBodySchema.safeParse({ subject, message });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    if (!online) {
      toast.show(BILLING_TOASTS.needsConnection);
      return;
    }
    setSending(true);
    try {
      const saved = await api.post<SentRequest>('/api/support-requests', parsed.data);
      setSent((rows) => [saved, ...rows]);
      setSubject('');
      setMessage('');
      toast.show(BILLING_TOASTS.supportRequestSent);
    } catch (error) {
      toast.show(withServerMessage(BILLING_TOASTS.supportRequestFailed, error));
    } finally {
      setSending(false);
    }
  };

  const days = support ? daysRemaining(support.expiresAt, now) : null;
  return (
    <Paper withBorder radius="lg" p="lg" mt="xl" data-testid="premium-support">
      <Stack gap="sm" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label="Priority support request">
        <Group gap="xs">
          <IconLifebuoy size={20} aria-hidden />
          <Title order={2} fz="lg">
            Priority support
          </Title>
        </Group>
        <Text size="sm" c="dimmed" data-testid="support-days">
          {days !== null ? `Premium Support: ${days} ${days === 1 ? 'day' : 'days'} remaining.` : 'Priority support is included in your plan.'}
        </Text>
        <TextInput label="Subject" value={subject} onChange={(e) => setSubject(e.currentTarget.value)} error={errors.subject} maxLength={SUPPORT_LIMITS.subject} withAsterisk />
        <Textarea label="How can we help?" value={message} onChange={(e) => setMessage(e.currentTarget.value)} error={errors.message} autosize minRows={4} maxLength={SUPPORT_LIMITS.message} withAsterisk />
        <Group justify="flex-end">
          <Button type="submit" loading={sending} disabled={!online}>
            {online ? 'Send request' : 'Sending needs a connection'}
          </Button>
        </Group>
        {sent.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Your requests
            </Text>
            {sent.map((r) => (
              <Text key={r.id} size="sm">
                {r.subject} <Text span c="dimmed">· {dateFormat.format(new Date(r.createdAt))}</Text>
              </Text>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
