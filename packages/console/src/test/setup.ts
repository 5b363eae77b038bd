import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearToasts } from '@/lib/toast';

// A page's first render loads its lazy chunks: on a busy machine that takes longer than Testing Library's 1 s
// default wait, so findBy* waits up to 5 s (a passing wait returns as soon as the element shows).
configure({ asyncUtilTimeout: 5000 });

// Testing Library only auto-cleans when test globals are on; this project keeps them off.
afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
  sessionStorage.clear();
});
