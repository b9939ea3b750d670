// The operators' back office (/admin.html): a desktop app of its own, never part of the phone
// app's bundle or its service worker's precache (vite.config.ts). It learns the server's clock
// (encrypted bodies carry it), loads its texts in the stored language and shows the login or the
// screens.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { AdminRoot } from './AdminRoot.tsx';
import { activateAdminLocale, storedAdminLocale } from './i18n.ts';
import { createAdminStore, logOut } from './store.ts';
import { configureTransport, syncServerClock } from './transport.ts';
import './admin.css';

const store = createAdminStore();
configureTransport({
  onUnauthorized: () => {
    if (store.getState().session.token) logOut(store, true);
  },
});

const code = storedAdminLocale();
const [antdLocale] = await Promise.all([activateAdminLocale(code), syncServerClock()]);

createRoot(document.getElementById('admin')!).render(
  <StrictMode>
    <Provider store={store}>
      <AdminRoot store={store} initialLocale={code} initialAntdLocale={antdLocale} />
    </Provider>
  </StrictMode>,
);
