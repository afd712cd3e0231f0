import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import { ErrorBoundary } from './components/error-boundary';
import { installGlobalErrorHandlers } from './lib/error-reporting';
import { getPerformanceMetrics, installPerformanceObservers } from './lib/performance-metrics';
import './index.css';

installGlobalErrorHandlers();
installPerformanceObservers();
// The kept metrics (spec §9) for whoever looks into a slow page: `invoicebox.metrics()` in the browser console.
Object.assign(window, { invoicebox: { metrics: getPerformanceMetrics } });

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
