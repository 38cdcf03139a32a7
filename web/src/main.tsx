import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/mantine';
import './styles/global.css';
import '@/lib/appBusy';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
