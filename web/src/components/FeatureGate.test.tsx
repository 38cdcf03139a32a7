import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { notifications } from '@mantine/notifications';
import type { PlanName } from '@chronicler/schema';
import { useSession } from '@/lib/session';
import { TEST_USER, stubFetch } from '@/test/fetch-stub';
import { renderInApp } from '@/test/render';
import { FeatureGate, type FeatureGateProps } from './FeatureGate';

function renderGate(plan: PlanName, props: Omit<FeatureGateProps, 'children'>) {
  notifications.clean();
  stubFetch({ 'GET /api/user': { status: 200, body: { ...TEST_USER, plan } } });
  useSession.setState({ status: 'authenticated', user: { ...TEST_USER, plan }, source: 'server' });
  return renderInApp(
    <MemoryRouter>
      <FeatureGate {...props}>
        <button type="button">Open timeline tools</button>
      </FeatureGate>
    </MemoryRouter>,
  );
}

describe('FeatureGate', () => {
  it('renders the children untouched when open', async () => {
    renderGate('wordsmith', { feature: 'timeline' });
    expect(await screen.findByRole('button', { name: 'Open timeline tools' })).toBeTruthy();
    expect(screen.queryByText('Feature Locked')).toBeNull();
  });

  it('locks a feature the tier lacks, with the tier message and an Upgrade link to /subscription', async () => {
    renderGate('apprentice', { feature: 'timeline' });
    expect(await screen.findByText('Feature Locked')).toBeTruthy();
    expect(
      screen.getByText(
        'This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    // The locked content cannot be reached.
    expect(screen.queryByRole('button', { name: 'Open timeline tools' })).toBeNull();
  });

  it('locks below a required tier and at a reached limit', async () => {
    const { unmount } = renderGate('wordsmith', { requiredTier: 'loremaster' });
    expect(await screen.findByText(/requires the Loremaster tier or higher/)).toBeTruthy();
    unmount();
    renderGate('apprentice', { limit: 'series', count: 1 });
    expect(await screen.findByText(/requires the Wordsmith tier or higher/)).toBeTruthy();
  });

  it('can show the "Feature Locked" toast', async () => {
    renderGate('apprentice', { feature: 'collaboration', toastOnLocked: true });
    // The gate's own title, then the toast once the toast stack has loaded (it loads with the first toast).
    await waitFor(() => expect(screen.getAllByText('Feature Locked')).toHaveLength(2));
  });
});
