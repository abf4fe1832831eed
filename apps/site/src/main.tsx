import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/router';
import { loadPublicConfig } from './lib/public-config';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);

loadPublicConfig().then(
  (config) => {
    document.title = config.siteTitle;
    root.render(
      <StrictMode>
        <AppProvider config={config}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProvider>
      </StrictMode>,
    );
  },
  (error: Error) => {
    root.render(
      <main role="alert" style={{ padding: '2rem', fontFamily: 'system-ui' }}>
        <h1>Engage cannot reach its server</h1>
        <p>{error.message} Check that the server is running, then reload the page.</p>
      </main>,
    );
  },
);
