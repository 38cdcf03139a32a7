import { Link } from 'react-router';
import { Anchor, Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconStarFilled } from '@tabler/icons-react';
import { type BillingInterval, type PlanName, type SubscriptionPlan, formatPlanPrice, yearlyPrice } from '@chronicler/schema';
import { DeferredTooltip } from '@/lib/first-load';
import { featurePage } from './featurePages';

export interface PlanCardProps {
  plan: SubscriptionPlan;
  interval: BillingInterval;
  current: boolean;
  processing: boolean;
  online: boolean;
  onSubscribe(plan: PlanName, interval: BillingInterval): void;
}

/** One plan: name, description, price, features, the most-popular marker and Subscribe Now (000 §2). */
export function PlanCard({ plan, interval, current, processing, online, onSubscribe }: PlanCardProps) {
  const yearly = interval === 'yearly' && plan.price > 0 ? yearlyPrice(plan.price) : null;
  const free = plan.price === 0;
  const button = (
    <Button
      fullWidth
      variant={plan.mostPopular ? 'filled' : 'light'}
      loading={processing}
      disabled={!online && !current}
      onClick={() => onSubscribe(plan.id, interval)}
      aria-label={`Subscribe Now to ${plan.name}${yearly ? ', billed annually' : ''}${!online && !current ? ' (needs a connection)' : ''}`}
    >
      Subscribe Now
    </Button>
  );
  return (
    <Card withBorder radius="lg" padding="lg" shadow={plan.mostPopular ? 'md' : 'xs'} data-testid={`plan-${plan.id}`} data-most-popular={plan.mostPopular || undefined}>
      <Stack gap="sm" h="100%">
        {/* The badges wrap below the name rather than shrink: in four narrow columns they were cut ("MOST P…"). */}
        <Group justify="space-between" align="flex-start" wrap="wrap" gap={6}>
          <Title order={3} fz="lg">
            {plan.name}
          </Title>
          <Group gap={6} wrap="wrap">
            {plan.mostPopular ? (
              <Badge leftSection={<IconStarFilled size={10} aria-hidden />} variant="filled" style={{ flex: 'none' }}>
                Most Popular
              </Badge>
            ) : null}
            {current ? (
              <Badge variant="light" color="teal" style={{ flex: 'none' }}>
                Current plan
              </Badge>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {plan.description}
        </Text>
        {yearly ? (
          <Stack gap={0}>
            <Text fz={28} fw={700}>
              {yearly.monthly}{' '}
              <Text span size="sm" c="dimmed" fw={400}>
                per month
              </Text>
            </Text>
            <Text size="sm" c="dimmed">
              <Text span td="line-through">{formatPlanPrice(plan.price)}</Text> · {yearly.annual} Billed annually
            </Text>
          </Stack>
        ) : (
          <Text fz={28} fw={700}>
            {formatPlanPrice(plan.price)}{' '}
            {free ? null : (
              <Text span size="sm" c="dimmed" fw={400}>
                per month
              </Text>
            )}
          </Text>
        )}
        <List spacing={4} size="sm" icon={<IconCheck size={14} aria-hidden color="var(--mantine-color-teal-6)" />} style={{ flex: 1 }}>
          {plan.features.map((feature) => {
            const page = featurePage(feature);
            return (
              <List.Item key={feature}>
                {page ? (
                  <Anchor component={Link} to={page} inherit>
                    {feature}
                  </Anchor>
                ) : (
                  feature
                )}
              </List.Item>
            );
          })}
        </List>
        {free ? (
          <Text size="sm" c="dimmed" ta="center">
            {current ? 'Free for every author' : 'Free: your plan when no subscription is active'}
          </Text>
        ) : online || current ? (
          button
        ) : (
          <DeferredTooltip label="Subscribing needs a connection" withArrow>
            <span>{button}</span>
          </DeferredTooltip>
        )}
      </Stack>
    </Card>
  );
}
