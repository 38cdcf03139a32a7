import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/mantine';
import './styles/global.css';
// The first screens' own stylesheets (the signed-in outline's, the brand mark's) in the entry's
// (index.css; +1.5 kB gzip on /auth): as files of their own they were two more requests queued on
// a phone's six connections ahead of the entry's scripts (~150 ms of the dashboard's LCP in
// Lighthouse's graph, measured).
import './styles/first-screens';
import '@/lib/appBusy';
import { App } from './app/App';
import { preloadFirstScreen } from './app/routes';
import { settleAnonymousSession } from './lib/session';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root');

// A first-time visitor is anonymous at once: /auth renders its form on the first render, not a spinner.
settleAnonymousSession();

// The first screen's module first (index.html has started its download): rendered without it,
// React would paint a spinner and hold the screen back 300 ms after it arrives (app/routes).
// Rendered as a transition, React works in slices of a few milliseconds: the first screen's render
// was one task of ~55 ms (~220 ms on a phone, all of it blocking time).
void preloadFirstScreen(window.location.pathname).then(() => {
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
