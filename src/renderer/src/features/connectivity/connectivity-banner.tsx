// A banner for each environment whose service could not be reached on the
// last call, with the reason in plain words. It goes once a call gets through.
// Above them, while the data folder takes nothing the app saves, that once.

import { ENVIRONMENT_IDS, ENVIRONMENT_LABELS } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';

export function ConnectivityBanner() {
  const connectivity = useAppStore((state) => state.connectivity);
  const storageProblem = useAppStore((state) => state.storageProblem);
  const unreachable = ENVIRONMENT_IDS.filter((id) => connectivity[id]?.reachable === false);

  return (
    <div className="banners">
      {storageProblem && (
        <div role="alert" className="banner banner-offline banner-storage">
          {storageProblem.message}
        </div>
      )}
      {unreachable.map((id) => (
        <div key={id} role="alert" className={`banner banner-offline banner-${id}`}>
          <strong>{ENVIRONMENT_LABELS[id]} cannot be reached.</strong>{' '}
          {connectivity[id]?.message ?? 'The service did not answer.'} Store Admin will show when it
          answers again.
        </div>
      ))}
    </div>
  );
}
