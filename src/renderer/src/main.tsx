// First: zod told not to use eval before any schema is defined.
import './zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './tokens.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// "Try now" on a rate limit's notice sends through main's quota:try-now.
const api = window.storeAdmin;
const noticeActions = api ? { tryNow: api.quota.tryNow } : undefined;

createRoot(root).render(
  <StrictMode>
    <App noticeActions={noticeActions} />
  </StrictMode>,
);
