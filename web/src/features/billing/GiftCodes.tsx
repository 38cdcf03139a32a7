import { ActionIcon, Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconGift } from '@tabler/icons-react';
import { type Entitlement, DAY_MS, GIFT_CODE_VALID_DAYS } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { BILLING_TOASTS } from '@/lib/copy/toasts';
import { toast } from '@/lib/toast';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The gift codes the author bought: to share, each redeemable once. */
export function GiftCodes({ entitlements }: { entitlements: readonly Entitlement[] }) {
  const gifts = entitlements.filter((e) => e.kind === 'gift-subscription' && e.giftCode);
  if (gifts.length === 0) return null;
  const copy = async (code: string) => {
    try {
      await navigator.clipboard.writeText(code);
      toast.show(BILLING_TOASTS.giftCodeCopied);
    } catch {
      /* the code stays on screen to copy by hand */
    }
  };
  return (
    <Paper withBorder radius="lg" p="lg" mt="xl" data-testid="gift-codes">
      <Stack gap="sm">
        <Group gap="xs">
          <IconGift size={20} aria-hidden />
          <Title order={2} fz="lg">
            Your gift codes
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          Each code gives one month of The Wordsmith to the author who redeems it on their Subscriptions page.
        </Text>
        {gifts.map((gift) => {
          const expires = new Date(Date.parse(gift.createdAt) + GIFT_CODE_VALID_DAYS * DAY_MS);
          return (
            <Group key={gift.id} justify="space-between" wrap="wrap">
              <Group gap="xs">
                <Code fz="md">{gift.giftCode}</Code>
                {gift.giftRedeemedAt ? <Badge variant="light" color="gray">Redeemed</Badge> : <Badge variant="light">Valid until {dateFormat.format(expires)}</Badge>}
              </Group>
              {gift.giftRedeemedAt ? null : (
                <DeferredTooltip label="Copy code" withArrow>
                  <ActionIcon variant="subtle" aria-label={`Copy gift code ${gift.giftCode}`} onClick={() => void copy(gift.giftCode!)}>
                    <IconCopy size={16} />
                  </ActionIcon>
                </DeferredTooltip>
              )}
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
