import { useEffect, useRef, useState } from 'react';
import { Button, Group, Notification, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { isAppBusy } from '@/lib/appBusy';
import classes from './UpdatePrompt.module.css';

const BUSY_POLL_MS = 1000;
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * A new version of the app is waiting (vite-plugin-pwa, registerType 'prompt'). "Reload" activates
 * it, but never while the app is busy (outbox in flight, unsaved editor input: lib/appBusy): it
 * waits until the app is idle, then reloads.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update();
      }, UPDATE_CHECK_MS);
    },
  });
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearInterval(timer.current), []);

  if (!needRefresh) return null;

  const reloadWhenIdle = () => {
    if (!isAppBusy()) {
      void updateServiceWorker(true);
      return;
    }
    setWaiting(true);
    window.clearInterval(timer.current);
    timer.current = window.setInterval(() => {
      if (isAppBusy()) return;
      window.clearInterval(timer.current);
      void updateServiceWorker(true);
    }, BUSY_POLL_MS);
  };

  return (
    <div className={classes.wrap} role="region" aria-label="App update">
      <Notification
        title="A new version of Chronicler is ready"
        icon={<IconRefresh size={18} />}
        onClose={() => {
          window.clearInterval(timer.current);
          setWaiting(false);
          setNeedRefresh(false);
        }}
        closeButtonProps={{ 'aria-label': 'Later' }}
        withBorder
        radius="md"
        className={classes.note}
      >
        <Text size="sm" c="dimmed">
          {waiting ? 'Saving your work first; the app reloads as soon as it is done.' : 'Reload to update.'}
        </Text>
        <Group mt="xs">
          <Button size="xs" onClick={reloadWhenIdle} loading={waiting}>
            Reload
          </Button>
        </Group>
      </Notification>
    </div>
  );
}
