import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconCircleCheckFilled, IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type PremiumProduct, checkoutHref, formatProductPrice } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';

/** Where an owned product is used. */
const USE_IT: Partial<Record<string, { to: string; label: string }>> = {
  'inspiration-pack': { to: '/inspiration', label: 'Browse prompts' },
  'writers-toolkit': { to: '/toolkit', label: 'Open the toolkit' },
};

/** Products an author can buy again (each purchase adds a month or a gift code). */
export const REPEATABLE: ReadonlySet<string> = new Set(['premium-support', 'gift-subscription']);

export function ProductCard({ product, owned, online }: { product: PremiumProduct; owned: boolean; online: boolean }) {
  const canBuy = !owned || REPEATABLE.has(product.id);
  const label = owned && canBuy ? 'Buy again' : 'Purchase Now';
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" data-testid={`product-${product.id}`} data-owned={owned || undefined}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} fz="lg">
            {product.name}
          </Title>
          {owned ? (
            <Badge color="teal" variant="light" leftSection={<IconCircleCheckFilled size={12} aria-hidden />}>
              Owned
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {product.description}
        </Text>
        <Text fz={24} fw={700}>
          {formatProductPrice(product)}{' '}
          <Text span size="sm" c="dimmed" fw={400}>
            one-time
          </Text>
        </Text>
        <List spacing={4} size="sm" icon={<IconCheck size={14} aria-hidden color="var(--mantine-color-teal-6)" />} style={{ flex: 1 }}>
          {product.benefits.map((benefit) => (
            <List.Item key={benefit}>{benefit}</List.Item>
          ))}
        </List>
        {!canBuy ? (
          USE_IT[product.id] ? (
            <Button component={Link} to={USE_IT[product.id]!.to} variant="light">
              {USE_IT[product.id]!.label}
            </Button>
          ) : (
            <Text size="sm" c="teal" ta="center" fw={500}>
              {product.id === 'custom-theme-pack' ? 'Choose your new themes in the theme picker' : 'Yours to keep, on every device'}
            </Text>
          )
        ) : online ? (
          <Button component={Link} to={checkoutHref(product)} leftSection={<IconShoppingCart size={16} aria-hidden />} aria-label={`${label}: ${product.name}`}>
            {label}
          </Button>
        ) : (
          <DeferredTooltip label="Buying needs a connection" withArrow>
            <Button disabled leftSection={<IconShoppingCart size={16} aria-hidden />} aria-label={`${label}: ${product.name} (needs a connection)`}>
              {label}
            </Button>
          </DeferredTooltip>
        )}
      </Stack>
    </Card>
  );
}
