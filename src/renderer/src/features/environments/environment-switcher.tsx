// Sandbox / Staging / Production, always in the header. Native radio buttons:
// the arrow keys move between them and switch, Tab leaves the group. A switch
// that fails is said in the notice area, so the header never changes height.

import { ENVIRONMENT_IDS, ENVIRONMENT_LABELS } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';

export function EnvironmentSwitcher() {
  const active = useAppStore((state) => state.activeEnvironment);
  const selectEnvironment = useAppStore((state) => state.selectEnvironment);

  return (
    <div role="radiogroup" aria-label="Environment" className="switcher">
      {ENVIRONMENT_IDS.map((id) => (
        <label key={id} className={`switcher-option switcher-option-${id}`}>
          <input
            type="radio"
            name="environment"
            value={id}
            checked={active === id}
            onChange={() => void selectEnvironment(id)}
          />
          <span className="switcher-text">
            {ENVIRONMENT_LABELS[id]}
            {id === 'production' && <span className="switcher-live"> — live</span>}
          </span>
        </label>
      ))}
    </div>
  );
}
