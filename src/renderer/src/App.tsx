// The window: the environment band, switcher and quota line always on top,
// then the current screen. The API comes from the preload by default; tests
// pass the in-process one.

import { useEffect, useState } from 'react';
import type { StoreAdminApi } from '../../preload/api.ts';
import { ConnectivityBanner } from './features/connectivity/connectivity-banner.tsx';
import { DomainsScreen } from './features/domains/domains-screen.tsx';
import { EnvironmentBand } from './features/environments/environment-band.tsx';
import { EnvironmentSwitcher } from './features/environments/environment-switcher.tsx';
import { ScreenNav } from './features/navigation/screen-nav.tsx';
import { OrdersScreen } from './features/orders/orders-screen.tsx';
import { QuotaLine } from './features/quota/quota-line.tsx';
import { SettingsScreen } from './features/settings/settings-screen.tsx';
import { connectEvents, createAppStore } from './store.ts';
import { StoreProvider, useAppStore } from './store-context.tsx';

export function App({ api = window.storeAdmin }: { api?: StoreAdminApi }) {
  if (!api) {
    return (
      <p role="alert" className="message message-error">
        Store Admin cannot reach its own background process. Please restart Store Admin.
      </p>
    );
  }
  return <ConnectedApp api={api} />;
}

function ConnectedApp({ api }: { api: StoreAdminApi }) {
  const [store] = useState(() => createAppStore(api));

  useEffect(() => connectEvents(api, store), [api, store]);
  useEffect(() => {
    void store.getState().loadApp();
  }, [store]);

  return (
    <StoreProvider store={store}>
      <AppWindow />
    </StoreProvider>
  );
}

function AppWindow() {
  const active = useAppStore((state) => state.activeEnvironment);
  const appLoad = useAppStore((state) => state.appLoad);

  return (
    <div className={`app app-${active}`}>
      <header className="app-header">
        <EnvironmentBand environment={active} live />
        <div className="header-row">
          <h1>Store Admin</h1>
          <EnvironmentSwitcher />
          <QuotaLine />
        </div>
        <ScreenNav />
      </header>
      <ConnectivityBanner />
      <main className="app-main">
        {appLoad.kind === 'loading' && <p role="status">Loading…</p>}
        {appLoad.kind === 'failed' && (
          <p role="alert" className="message message-error">
            {appLoad.message}
          </p>
        )}
        {appLoad.kind === 'ready' && <CurrentScreen />}
      </main>
    </div>
  );
}

function CurrentScreen() {
  const screen = useAppStore((state) => state.screen);
  if (screen.kind === 'domains') return <DomainsScreen />;
  return screen.kind === 'orders' ? (
    <OrdersScreen />
  ) : (
    <SettingsScreen environment={screen.environment} focusHeading={screen.focusHeading} />
  );
}
