import { useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { TOASTS } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';

/** Stripe's Payment Element and Pay; a refused card shows "Payment Failed" with Stripe's message. */
export function PaymentForm({ priceLabel, returnUrl }: { priceLabel: string; returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    // Card payments redirect to return_url only when the card needs it (3-D Secure); otherwise
    // the promise answers here.
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    if (result.error) {
      toast.show({ ...TOASTS.paymentFailed, message: result.error.message ?? TOASTS.paymentFailed.message });
      setBusy(false);
      return;
    }
    window.location.assign(`${returnUrl}&redirect_status=${encodeURIComponent(result.paymentIntent?.status ?? 'succeeded')}`);
  };

  return (
    <Stack gap="md" component="form" onSubmit={(e: FormEvent) => void submit(e)} aria-label="Payment details">
      <PaymentElement onReady={() => setReady(true)} />
      <Button type="submit" size="md" loading={busy} disabled={!stripe || !elements || !ready} leftSection={<IconLock size={16} aria-hidden />}>
        Pay {priceLabel}
      </Button>
      <Text size="xs" c="dimmed" ta="center">
        Payments are processed by Stripe. Your card details never reach Chronicler.
      </Text>
    </Stack>
  );
}
