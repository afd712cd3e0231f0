import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Sonner injects its stylesheet as an inline <style>, which the server's CSP (style-src 'self') refuses. Its CSS file
 * is imported with the app's instead (app/provider.tsx), and the injection is dropped here.
 */
function sonnerStylesFromFile(): Plugin {
  return {
    name: 'sonner-styles-from-file',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return;
      return code.replace(/^__insertCSS\(/m, 'void (');
    },
  };
}

// The API server (apps/server) serves the built SPA from apps/web/dist; in development Vite serves it and
// forwards /api to the server on its default port.
export default defineConfig({
  plugins: [react(), tailwindcss(), sonnerStylesFromFile()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate files keep them cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // The dashboard's chart library and what it alone uses, loaded with the chart only (see month-trend).
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|d3-[a-z-]+|victory-vendor|internmap|@reduxjs|redux|redux-thunk|react-redux|reselect|immer|es-toolkit|decimal\.js-light|eventemitter3|tiny-invariant|use-sync-external-store)[\\/]/,
            },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
  preview: {
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
});
