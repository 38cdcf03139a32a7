/**
 * /checkout?productId&amount (spec 000 §2, §4, §8; docs/server.md#billing). Without both: the toast
 * "Missing product information" and "/". Otherwise a PaymentIntent is made on the server at the
 * catalogue price (the URL's amount is only what the page showed: when it is not the price, the
 * server says so and the real price is used and shown), then "Complete your purchase" with Stripe's
 * Payment Element. Stripe.js is loaded from here only (`@stripe/stripe-js/pure`, this route's
 * chunk), so no other page downloads it. Back from Stripe: "Payment Successful", and the product
 * appears once the verified webhook has granted it. Offline: buying needs a connection.
 */
import '../styles';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconWifiOff } from '@tabler/icons-react';
import { Elements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { ERROR_CODES, UNKNOWN_PRODUCT, formatCents, productById } from '@chronicler/schema';
import { PageHeader } from '@/components/PageHeader';
import { PageSpinner } from '@/components/PageSpinner';
import { api, isApiError } from '@/lib/api';
import { FALLBACK_MESSAGES, TOASTS } from '@/lib/copy/toasts';
import { withServerMessage } from '../copy';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/useOnline';
import { useBilling } from '../useBilling';
import { PaymentForm } from './PaymentForm';

interface IntentAnswer {
  clientSecret: string;
  /** The catalogue price in dollars. */
  amount: number;
  publishableKey: string | null;
}

type Setup = { state: 'loading' } | { state: 'ready'; intent: IntentAnswer; stripe: Promise<Stripe | null>; corrected: boolean } | { state: 'error'; message: string };

const NOT_SET_UP = 'Card payments are not set up on this server yet.';

let stripeLoad: { key: string; promise: Promise<Stripe | null> } | null = null;
/** One Stripe.js per page and key. */
function stripeFor(key: string): Promise<Stripe | null> {
  if (stripeLoad?.key !== key) stripeLoad = { key, promise: loadStripe(key) };
  return stripeLoad.promise;
}

async function createIntent(productId: string, amount: number): Promise<{ intent: IntentAnswer; corrected: boolean }> {
  try {
    return { intent: await api.post<IntentAnswer>('/api/create-payment-intent', { items: [{ id: productId }], amount }), corrected: false };
  } catch (error) {
    // The page showed an old price: pay the real one, and say so.
    const real = isApiError(error) && error.code === ERROR_CODES.priceMismatch ? (error.body as { amount?: unknown }).amount : undefined;
    if (typeof real !== 'number') throw error;
    return { intent: await api.post<IntentAnswer>('/api/create-payment-intent', { items: [{ id: productId }], amount: real }), corrected: true };
  }
}

function Unavailable({ message }: { message: string }) {
  return (
    <Paper withBorder radius="lg" p="xl" maw={560} mx="auto" role="alert" data-testid="checkout-error">
      <Stack gap="md" align="center" ta="center">
        <IconAlertTriangle size={36} aria-hidden color="var(--mantine-color-red-6)" />
        <Title order={2} fz="xl">
          {FALLBACK_MESSAGES.paymentInit}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to="/">
          Return to Home
        </Button>
      </Stack>
    </Paper>
  );
}

export function CheckoutScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const online = useOnline();
  const productId = params.get('productId') ?? '';
  const amountText = params.get('amount') ?? '';
  const complete = productId !== '' && amountText !== '';
  const redirectStatus = params.get('redirect_status');
  const product = productById(productId);
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });
  const warned = useRef(false);

  useEffect(() => {
    if (complete || warned.current) return;
    warned.current = true;
    toast.show(TOASTS.missingProductInformation);
    void navigate('/', { replace: true });
  }, [complete, navigate]);

  useEffect(() => {
    if (!complete || redirectStatus !== null || !online) return;
    if (!product) {
      toast.show({ ...TOASTS.paymentIntentFailed, message: UNKNOWN_PRODUCT });
      setSetup({ state: 'error', message: UNKNOWN_PRODUCT });
      return;
    }
    let live = true;
    setSetup({ state: 'loading' });
    createIntent(product.id, Number(amountText) || 0).then(
      ({ intent, corrected }) => {
        if (!live) return;
        if (!intent.publishableKey) setSetup({ state: 'error', message: NOT_SET_UP });
        else setSetup({ state: 'ready', intent, stripe: stripeFor(intent.publishableKey), corrected });
      },
      (error: unknown) => {
        if (!live) return;
        const shown = withServerMessage(TOASTS.paymentIntentFailed, error);
        toast.show(shown);
        setSetup({ state: 'error', message: shown.message ?? FALLBACK_MESSAGES.paymentSetup });
      },
    );
    return () => {
      live = false;
    };
  }, [complete, redirectStatus, online, product, amountText]);

  const returnUrl = useMemo(() => `${window.location.origin}/checkout?productId=${encodeURIComponent(productId)}&amount=${encodeURIComponent(amountText)}`, [productId, amountText]);

  if (!complete) return <PageSpinner />;
  if (redirectStatus !== null) return <Returned succeeded={redirectStatus === 'succeeded'} productId={productId} />;

  return (
    <>
      <PageHeader title="Complete your purchase" subtitle={product ? `${product.name} · one-time payment` : 'Secure checkout'} />
      {!online ? (
        <Paper withBorder radius="lg" p="xl" maw={560} mx="auto" data-testid="checkout-offline">
          <Stack gap="sm" align="center" ta="center">
            <IconWifiOff size={32} aria-hidden />
            <Title order={2} fz="lg">
              Buying needs a connection
            </Title>
            <Text c="dimmed">Connect to the internet to pay. Your products and plan keep working offline.</Text>
            <Button component={Link} to="/products" variant="default">
              Back to products
            </Button>
          </Stack>
        </Paper>
      ) : setup.state === 'loading' ? (
        <PageSpinner />
      ) : setup.state === 'error' ? (
        <Unavailable message={setup.message} />
      ) : (
        <Paper withBorder radius="lg" p="xl" maw={560} mx="auto">
          <Stack gap="md">
            <Group justify="space-between">
              <Text fw={600}>{product!.name}</Text>
              <Text fw={700} data-testid="checkout-price">
                {formatCents(Math.round(setup.intent.amount * 100))}
              </Text>
            </Group>
            {setup.corrected ? (
              <Alert color="yellow" title="The price has changed">
                {product!.name} costs {formatCents(Math.round(setup.intent.amount * 100))}; that is what you will pay.
              </Alert>
            ) : null}
            <Elements stripe={setup.stripe} options={{ clientSecret: setup.intent.clientSecret }}>
              <PaymentForm priceLabel={formatCents(Math.round(setup.intent.amount * 100))} returnUrl={returnUrl} />
            </Elements>
          </Stack>
        </Paper>
      )}
    </>
  );
}

/** Back from Stripe: success (the product appears once the webhook granted it) or failure. */
function Returned({ succeeded, productId }: { succeeded: boolean; productId: string }) {
  const { owned, refresh } = useBilling();
  const product = productById(productId);
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toast.show(succeeded ? TOASTS.paymentSuccessful : TOASTS.paymentFailed);
  }, [succeeded]);
  const granted = product ? owned.has(product.id) : false;
  useEffect(() => {
    if (!succeeded || granted) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      void refresh();
      if (tries >= 30) clearInterval(timer);
    }, 2000);
    return () => clearInterval(timer);
  }, [succeeded, granted, refresh]);

  if (!succeeded) {
    return (
      <>
        <PageHeader title="Complete your purchase" />
        <Unavailable message="Your payment did not go through. Nothing was charged; you can try again from Products." />
      </>
    );
  }
  return (
    <>
      <PageHeader title="Payment Successful" subtitle="Thank you for your purchase!" />
      <Paper withBorder radius="lg" p="xl" maw={560} mx="auto" data-testid="checkout-success">
        <Stack gap="md" align="center" ta="center">
          <IconCircleCheck size={40} aria-hidden color="var(--mantine-color-teal-6)" />
          <Text>
            {product ? product.name : 'Your purchase'} {granted || !product || product.id === 'gift-subscription' ? 'is ready.' : 'will be ready in a moment.'}
          </Text>
          <Button component={Link} to="/products">
            Go to your products
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
