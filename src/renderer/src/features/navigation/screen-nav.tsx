// The screens of the window. The current one is marked with aria-current.

import { BoldWidth } from '../../components/bold-width.tsx';
import { useAppStore } from '../../store-context.tsx';

export function ScreenNav() {
  const screen = useAppStore((state) => state.screen.kind);
  const showOrders = useAppStore((state) => state.showOrders);
  const showSettings = useAppStore((state) => state.showSettings);
  const showDomains = useAppStore((state) => state.showDomains);

  return (
    <nav aria-label="Screens" className="screen-nav">
      <button
        type="button"
        aria-current={screen === 'orders' ? 'page' : undefined}
        onClick={showOrders}
      >
        <BoldWidth label="Orders" />
      </button>
      <button
        type="button"
        aria-current={screen === 'domains' ? 'page' : undefined}
        onClick={showDomains}
      >
        <BoldWidth label="Domains" />
      </button>
      <button
        type="button"
        aria-current={screen === 'settings' ? 'page' : undefined}
        onClick={() => showSettings()}
      >
        <BoldWidth label="Settings" />
      </button>
    </nav>
  );
}
