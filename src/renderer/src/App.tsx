// The window: a fixed header (the environment band, the screens, the
// environment switcher and the quota meter), the current screen filling the
// rest, and under it the message dock: the notice area holding each current
// condition once, then the short messages that go away by themselves. The
// dock takes room of its own at the bottom, so a message that comes covers
// no work and moves nothing under the pointer (the screen above only ends
// higher). The page itself never scrolls: the orders grid scrolls inside
// itself, and the other screens scroll inside their own frame. The API comes
// from the preload by default; tests pass the in-process one.

import { useEffect, useState } from 'react';
import { MoreMenu, useFold } from './components/fold-bar.tsx';
import { CommandCenter } from './features/commands/command-center.tsx';
import type { StoreAdminApi } from '../../shared/api.ts';
import type { OrderStreams } from '../../shared/order-stream.ts';
import { ToastDockContext } from './components/toast.tsx';
import { NoticeArea, type NoticeActions } from './features/notices/notice-area.tsx';
import { DomainsScreen } from './features/domains/domains-screen.tsx';
import { DomainAnnouncer } from './features/domains/domain-announcer.tsx';
import { EnvironmentBand } from './features/environments/environment-band.tsx';
import { EnvironmentSwitcher } from './features/environments/environment-switcher.tsx';
import { ScreenNav } from './features/navigation/screen-nav.tsx';
import { portOrderStreams } from './features/orders/order-streams.ts';
import { OrdersScreen } from './features/orders/orders-screen.tsx';
import { QuotaLine } from './features/quota/quota-line.tsx';
import { SettingsScreen } from './features/settings/settings-screen.tsx';
import { connectEvents, createAppStore } from './store.ts';
import { StoreProvider, useAppStore } from './store-context.tsx';
import { UiPreferencesProvider } from './ui-preferences.tsx';

export interface AppProps {
  readonly api?: StoreAdminApi;
  /** Actions the notices offer that another part of the app provides (e.g. "Try now" on a hold). */
  readonly noticeActions?: NoticeActions;
  /** Where order lists arrive as columns: the ports main sends this page by default; tests pass their own. */
  readonly orderStreams?: OrderStreams;
}

export function App({ api = window.storeAdmin, noticeActions, orderStreams }: AppProps) {
  if (!api) {
    return (
      <p role="alert" className="message message-error">
        Store Admin cannot reach its own background process. Please restart Store Admin.
      </p>
    );
  }
  return <ConnectedApp api={api} noticeActions={noticeActions} orderStreams={orderStreams} />;
}

function ConnectedApp({
  api,
  noticeActions,
  orderStreams,
}: {
  api: StoreAdminApi;
  noticeActions: NoticeActions | undefined;
  orderStreams: OrderStreams | undefined;
}) {
  const [store] = useState(() => createAppStore(api, orderStreams ?? portOrderStreams(window)));

  useEffect(() => connectEvents(api, store), [api, store]);
  useEffect(() => {
    void store.getState().loadApp();
  }, [store]);

  return (
    <StoreProvider store={store}>
      <UiPreferencesProvider>
        <CommandCenter onMenuCommand={api.events.onAppCommand}>
          <AppWindow noticeActions={noticeActions} />
        </CommandCenter>
      </UiPreferencesProvider>
    </StoreProvider>
  );
}

/** What the header folds into "More" when it has no room (zoom, a narrow window), first to last. */
const HEADER_FOLDS = ['quota', 'screens', 'switcher'] as const;

function AppWindow({ noticeActions }: { noticeActions: NoticeActions | undefined }) {
  const active = useAppStore((state) => state.activeEnvironment);
  const appLoad = useAppStore((state) => state.appLoad);
  const [toastDock, setToastDock] = useState<HTMLElement | null>(null);

  return (
    <ToastDockContext value={toastDock}>
      <div className={`app app-${active}`}>
        <header className="app-header">
          <EnvironmentBand environment={active} live />
          <HeaderBar />
        </header>
        <main className="app-main">
          {appLoad.kind === 'loading' && (
            <p role="status" className="screen-message">
              Loading…
            </p>
          )}
          {appLoad.kind === 'failed' && (
            <p role="alert" className="message message-error screen-message">
              {appLoad.message}
            </p>
          )}
          {appLoad.kind === 'ready' && <CurrentScreen />}
        </main>
        <div className="message-dock">
          <NoticeArea actions={noticeActions} />
          {/* Where every screen's short messages show (components/toast.tsx). */}
          <div ref={setToastDock} className="toast-dock" />
        </div>
        {/* Domains re-checked in main: each change is said whatever screen is open. */}
        <DomainAnnouncer />
      </div>
    </ToastDockContext>
  );
}

/**
 * Title, screens, environment switcher and quota on one line; what does not fit goes under "More".
 * Packed from the left, with the quota meter last, so its words changing each second move nothing else.
 */
function HeaderBar() {
  const { attach, isFolded, anyFolded } = useFold(HEADER_FOLDS);
  const screens = <ScreenNav />;
  const switcher = <EnvironmentSwitcher />;
  const quota = <QuotaLine />;
  return (
    <div className="header-bar" ref={attach}>
      <h1 className="app-title">Store Admin</h1>
      {!isFolded('screens') && <div data-fold="screens">{screens}</div>}
      {!isFolded('switcher') && <div data-fold="switcher">{switcher}</div>}
      {!isFolded('quota') && <div data-fold="quota">{quota}</div>}
      {/* The room left, so "More" stands at the bar's end and its panel opens from the window's edge. */}
      <div data-fold-spacer="" />
      {anyFolded && (
        <MoreMenu label="More of the header" className="header-more">
          {isFolded('screens') && screens}
          {isFolded('switcher') && switcher}
          {isFolded('quota') && quota}
        </MoreMenu>
      )}
    </div>
  );
}

function CurrentScreen() {
  const screen = useAppStore((state) => state.screen);
  if (screen.kind === 'orders') return <OrdersScreen />;
  // Screens of forms and text scroll inside their own frame; the header stays put.
  return (
    <div className="screen-scroll">
      {screen.kind === 'domains' ? (
        <DomainsScreen />
      ) : (
        <SettingsScreen environment={screen.environment} focusHeading={screen.focusHeading} />
      )}
    </div>
  );
}
