/**
 * /subscriptions (spec 000 §2, §4): tabs All Plans, Monthly, Yearly (Save 20%) and
 * Compare Features; plan cards with the most-popular marker and Subscribe Now (a per-plan
 * processing flag; the current plan answers "Already subscribed" and sends nothing); the author's
 * plan, renewal, a failed renewal and Manage subscription; gift codes.
 *
 * The plans come from GET /api/subscription-plans; offline (or while it loads) the same list is
 * drawn from the shared plan table, so the page always renders. Subscribing needs a connection.
 * Back from Stripe Checkout (?checkout=success) the page asks for the billing status until the
 * webhook has landed, so the new plan and its features appear without a reload.
 */
import './styles';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, SimpleGrid, Tabs } from '@mantine/core';
import { IconCreditCard, IconHourglass } from '@tabler/icons-react';
import { type BillingInterval, type PlanName, type SubscriptionPlan, DEFAULT_PLAN, subscriptionPlans } from '@chronicler/schema';
import { EmptyPanel } from '@/components/EmptyPanel';
import { PageHeader } from '@/components/PageHeader';
import { OfflineNote } from '@/components/SeriesListScreen';
import { api } from '@/lib/api';
import { BILLING_TOASTS, TOASTS, alreadySubscribedToast } from '@/lib/copy/toasts';
import { withServerMessage } from './copy';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { CompareFeatures } from './CompareFeatures';
import { CurrentPlanPanel } from './CurrentPlanPanel';
import { GiftRedeemForm } from './GiftRedeemForm';
import { PlanCard } from './PlanCard';
import { useBilling } from './useBilling';

/** How long the page waits for the webhook after Checkout before it stops asking. */
export const CONFIRM_POLL_MS = 2000;
export const CONFIRM_POLL_ATTEMPTS = 30;

function usePlans(online: boolean): SubscriptionPlan[] {
  const [plans, setPlans] = useState<SubscriptionPlan[]>(subscriptionPlans);
  useEffect(() => {
    if (!online) return;
    let live = true;
    api.get<SubscriptionPlan[]>('/api/subscription-plans').then(
      (answer) => live && setPlans(Array.isArray(answer) ? answer : []),
      () => live && toast.show(TOASTS.plansLoadFailed),
    );
    return () => {
      live = false;
    };
  }, [online]);
  return plans;
}

export function SubscriptionsScreen() {
  const plan = useSession((s) => s.user?.plan ?? DEFAULT_PLAN);
  const billing = useBilling();
  const { online, refresh } = billing;
  const plans = usePlans(online);
  const [processing, setProcessing] = useState<Partial<Record<PlanName, boolean>>>({});
  const [params, setParams] = useSearchParams();
  const returned = params.get('checkout');
  const [confirming, setConfirming] = useState(returned === 'success');

  // Back from Checkout: the webhook may land a moment later — or may already have, and the plan
  // reached this app live before the page asked. An author has one subscription at a time (the
  // server refuses a second Checkout), so an active one is the one just bought: the plan the app
  // shows now is not compared (it made the confirmation wait forever when the webhook won the race).
  useEffect(() => {
    if (returned !== 'success' || !online) return;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      attempts += 1;
      const status = await refresh();
      const active = status?.subscription && ['active', 'trialing'].includes(status.subscription.status);
      if (active) {
        toast.show(BILLING_TOASTS.subscriptionConfirmed);
        setConfirming(false);
        setParams({}, { replace: true });
      } else if (attempts < CONFIRM_POLL_ATTEMPTS) timer = setTimeout(() => void ask(), CONFIRM_POLL_MS);
      else setConfirming(false);
    };
    void ask();
    return () => clearTimeout(timer);
  }, [returned, online, refresh, setParams]);

  const subscribe = async (planName: PlanName, interval: BillingInterval) => {
    if (planName === plan) {
      toast.show(alreadySubscribedToast(planName));
      return;
    }
    if (!online) {
      toast.show(BILLING_TOASTS.needsConnection);
      return;
    }
    setProcessing((p) => ({ ...p, [planName]: true }));
    try {
      const { url } = await api.post<{ url: string }>('/api/subscriptions', { planName, interval });
      window.location.assign(url);
    } catch (error) {
      toast.show(withServerMessage(TOASTS.checkoutSessionFailed, error));
      setProcessing({});
    }
  };

  const grid = (list: SubscriptionPlan[], interval: BillingInterval) =>
    list.length === 0 ? (
      <EmptyPanel compact icon={<IconCreditCard size={28} aria-hidden />} title="No Plans Available" description="There are currently no subscription plans available." />
    ) : (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {list.map((p) => (
          <PlanCard key={p.id} plan={p} interval={interval} current={p.id === plan} processing={processing[p.id] === true} online={online} onSubscribe={(n, i) => void subscribe(n, i)} />
        ))}
      </SimpleGrid>
    );

  return (
    <>
      <PageHeader title="Subscription Plans" subtitle="Choose the plan that fits your saga" />
      <OfflineNote mb="md" />
      {confirming ? (
        <Alert icon={<IconHourglass size={18} aria-hidden />} title="Confirming your subscription" mb="lg" role="status">
          Thank you! Your payment went through; your new plan appears here as soon as Stripe confirms it.
        </Alert>
      ) : null}
      {returned === 'cancelled' ? (
        <Alert title="Checkout cancelled" mb="lg" withCloseButton closeButtonLabel="Dismiss" onClose={() => setParams({}, { replace: true })}>
          Nothing was charged. You can subscribe whenever you are ready.
        </Alert>
      ) : null}
      <CurrentPlanPanel plan={plan} status={billing.status} online={online} />
      <Tabs defaultValue="all" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="all">All Plans</Tabs.Tab>
          <Tabs.Tab value="monthly">Monthly</Tabs.Tab>
          <Tabs.Tab value="yearly">Yearly (Save 20%)</Tabs.Tab>
          <Tabs.Tab value="compare">Compare Features</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="all">{grid(plans, 'monthly')}</Tabs.Panel>
        <Tabs.Panel value="monthly">{grid(plans.filter((p) => p.price > 0), 'monthly')}</Tabs.Panel>
        <Tabs.Panel value="yearly">{grid(plans.filter((p) => p.price > 0), 'yearly')}</Tabs.Panel>
        <Tabs.Panel value="compare">
          <CompareFeatures />
        </Tabs.Panel>
      </Tabs>
      <GiftRedeemForm online={online} onRedeemed={() => void refresh()} />
    </>
  );
}
