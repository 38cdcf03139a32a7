import { useState } from 'react';
import { Stack } from '@mantine/core';
import { ConfirmDeleteDialog } from '@/components/ConfirmDeleteDialog';
import { PageHeader } from '@/components/PageHeader';
import { signOut } from '@/lib/session';
import { ChangePasswordCard } from './ChangePasswordCard';
import { ACCOUNT_COPY } from './copy';
import { SessionsCard } from './SessionsCard';
import { StorageCard } from './StorageCard';

/**
 * /account: change the password (the current one asked), manage the signed-in devices — the
 * server's sessions and password routes (sync-server/src/auth/account-routes.ts) — and see the
 * pictures' storage against the plan's allowance.
 */
export function AccountSettingsScreen() {
  const [reloadKey, setReloadKey] = useState(0);
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <PageHeader title={ACCOUNT_COPY.title} subtitle={ACCOUNT_COPY.subtitle} />
      <Stack gap="lg" maw={760}>
        <ChangePasswordCard onChanged={() => setReloadKey((k) => k + 1)} />
        <SessionsCard reloadKey={reloadKey} onSignOutEverywhere={() => setConfirming(true)} />
        <StorageCard />
      </Stack>
      <ConfirmDeleteDialog
        opened={confirming}
        title={ACCOUNT_COPY.signOutEverywhereTitle}
        message={ACCOUNT_COPY.signOutEverywhereMessage}
        confirmLabel={ACCOUNT_COPY.signOutEverywhere}
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          // The usual sign-out (unsynced-changes warning, local data cleared, reload), for every session.
          const result = await signOut({ everywhere: true });
          if (result !== 'signed-out') setConfirming(false);
        }}
      />
    </>
  );
}
