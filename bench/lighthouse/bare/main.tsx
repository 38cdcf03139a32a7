// The Lighthouse bench's baseline (bench/lighthouse.ts): React and react-dom only, built with the
// web app's Vite and React plugin, served by the same server with the same precompression.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function BarePage() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 480, margin: '48px auto', padding: 16, color: '#1a1b25' }}>
      <h1>Welcome back</h1>
      <p>Your ultimate writing companion.</p>
      <button type="button">Continue</button>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BarePage />
  </StrictMode>,
);
