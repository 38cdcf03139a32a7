import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCreditCard, IconGift } from '@tabler/icons-react';
import { type BillingStatus, PLANS, type PlanName } from '@chronicler/schema';
import { api } from '@/lib/api';
import { BILLING_TOASTS } from '@/lib/copy/toasts';
import { withServerMessage } from './copy';
import { toast } from '@/lib/toast';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
const dateOf = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : null);

export interface CurrentPlanPanelProps {
  plan: PlanName;
  status: BillingStatus | null;
  online: boolean;
}

/** The author's plan, how it renews or ends, a failed renewal, a gift month, and Manage subscription. */
export function CurrentPlanPanel({ plan, status, online }: CurrentPlanPanelProps) {
  const [opening, setOpening] = useState(false);
  const sub = status?.subscription ?? null;
  const subscriber = sub !== null && sub.status !== 'canceled' && sub.status !== 'incomplete_expired';

  const manage = async () => {
    if (!online) {
      toast.show(BILLING_TOASTS.needsConnection);
      return;
    }
    setOpening(true);
    try {
      const { url } = await api.post<{ url: string }>('/api/billing/portal');
      window.location.assign(url);
    } catch (error) {
      toast.show(withServerMessage(BILLING_TOASTS.portalFailed, error));
      setOpening(false);
    }
  };

  let renewal: string | null = null;
  if (sub && subscriber) {
    const end = dateOf(sub.currentPeriodEnd);
    const billed = sub.interval === 'yearly' ? 'yearly' : 'monthly';
    renewal = sub.cancelAtPeriodEnd ? `Cancelled: ${PLANS[sub.plan].displayName} ends${end ? ` on ${end}` : ' at the end of this period'}.` : `Billed ${billed}${end ? `, renews on ${end}` : ''}.`;
  }

  return (
    <Paper withBorder radius="lg" p="lg" mb="xl" data-testid="current-plan">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Your plan
            </Text>
            <Group gap="xs">
              <Text fw={700} fz="xl" data-testid="current-plan-name">
                {PLANS[plan].displayName}
              </Text>
              {sub?.cancelAtPeriodEnd && subscriber ? <Badge color="orange" variant="light">Ends soon</Badge> : null}
            </Group>
            {renewal ? (
              <Text size="sm" c="dimmed">
                {renewal}
              </Text>
            ) : null}
          </Stack>
          {subscriber || status?.subscription ? (
            <Button leftSection={<IconCreditCard size={16} aria-hidden />} variant="default" loading={opening} onClick={() => void manage()}>
              Manage subscription
            </Button>
          ) : null}
        </Group>
        {sub?.paymentFailed && subscriber ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title="Your last payment failed" role="alert">
            We could not renew {PLANS[sub.plan].displayName}. Update your card with Manage subscription; your plan stays active while we try again.
          </Alert>
        ) : null}
        {status?.giftUntil ? (
          <Group gap="xs">
            <IconGift size={16} aria-hidden />
            <Text size="sm">A gift month of {PLANS.wordsmith.displayName} runs until {dateOf(status.giftUntil)}.</Text>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
