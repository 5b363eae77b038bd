import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Bootstrap } from './app/Bootstrap';
import { ThemeProvider } from './lib/theme-provider';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <ThemeProvider>
      <Bootstrap />
    </ThemeProvider>
  </StrictMode>,
);
