// Sandbox / Staging / Production, always in the header. Native radio buttons:
// the arrow keys move between them and switch, Tab leaves the group.

import { useId } from 'react';
import { ENVIRONMENT_IDS, ENVIRONMENT_LABELS } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';

export function EnvironmentSwitcher() {
  const active = useAppStore((state) => state.activeEnvironment);
  const selectEnvironment = useAppStore((state) => state.selectEnvironment);
  const switchProblem = useAppStore((state) => state.switchProblem);
  const labelId = useId();
  const problemId = useId();

  return (
    <div className="switcher">
      <span id={labelId} className="switcher-label">
        Environment
      </span>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={switchProblem ? problemId : undefined}
        className="switcher-options"
      >
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
      {switchProblem && (
        <p id={problemId} role="alert" className="message message-error">
          {switchProblem}
        </p>
      )}
    </div>
  );
}
