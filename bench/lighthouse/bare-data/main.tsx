// The Lighthouse bench's second baseline (bench/lighthouse.ts): the bare page (../bare) plus the
// least an offline-first dashboard on a fresh profile must do before its content: create its local
// database (IndexedDB, as many object stores as the app's, no library), ask the server for one JSON
// answer once the script has run, store it, read it back — and only then paint the content, as
// large a text as the dashboard's LCP element (its Your Badges line). React and react-dom only,
// built with the web app's Vite and React plugin, served by the same server with the same
// precompression.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

/** The app's local database has 21 tables (packages/sync-client db.ts); the same number of stores here. */
const STORES = 21;

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('bare-dashboard', 1);
    request.onupgradeneeded = () => {
      for (let i = 0; i < STORES; i++) request.result.createObjectStore(`table${i}`, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(request: IDBRequest | IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    if ('oncomplete' in request) request.oncomplete = () => resolve();
    else request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

async function loadAnswer(): Promise<unknown> {
  const [db, answer] = await Promise.all([
    openDatabase(),
    fetch('/api/health', { credentials: 'include', cache: 'no-store' }).then((response) => response.json() as Promise<unknown>),
  ]);
  const write = db.transaction('table0', 'readwrite');
  write.objectStore('table0').put({ id: 'answer', answer });
  await done(write);
  const read = db.transaction('table0').objectStore('table0').get('answer');
  await done(read);
  return (read.result as { answer: unknown }).answer;
}

function BareDashboard() {
  const [answer, setAnswer] = useState<unknown>(null);
  useEffect(() => {
    void loadAnswer().then(setAnswer, () => setAnswer({ ok: false }));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 480, margin: '48px auto', padding: 16, color: '#1a1b25' }}>
      <h1 style={{ fontSize: 22 }}>Welcome back</h1>
      {answer === null ? null : (
        <section aria-label="Your Badges">
          <h2 style={{ fontSize: 16 }}>Your Badges</h2>
          <p style={{ fontSize: 14, lineHeight: 1.55 }}>
            No badges yet. Keep writing and creating to earn your first. Every chapter you finish, every character you
            add and every day you write brings the next one closer.
          </p>
        </section>
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BareDashboard />
  </StrictMode>,
);
