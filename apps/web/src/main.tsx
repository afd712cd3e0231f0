import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import { ErrorBoundary } from './components/error-boundary';
import { installGlobalErrorHandlers } from './lib/error-reporting';
import './index.css';

installGlobalErrorHandlers();

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary level="critical">
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </ErrorBoundary>
  </StrictMode>,
);
