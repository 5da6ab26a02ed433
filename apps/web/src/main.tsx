import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { installGlobalErrorCapture } from './lib/log.ts';
// In this order: the mends of accessibility.css win over the frame's and panels' rules.
import './app/styles/frame.css';
import './app/styles/panels.css';
import './app/styles/accessibility.css';

installGlobalErrorCapture();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
