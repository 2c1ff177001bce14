// Sandbox / Staging / Production, always in the header. Native radio buttons,
// but the arrow keys only move the focus between them: switching starts a
// refresh (in Production, of live orders), so it waits for Enter or Space,
// or a click. Tab enters the group at the chosen one and leaves it. A switch
// that fails is said in the notice area, so the header never changes height.

import type { KeyboardEvent } from 'react';
import { ENVIRONMENT_IDS, ENVIRONMENT_LABELS } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';

const STEPS: Readonly<Record<string, number>> = {
  ArrowRight: 1,
  ArrowDown: 1,
  ArrowLeft: -1,
  ArrowUp: -1,
};

export function EnvironmentSwitcher() {
  const active = useAppStore((state) => state.activeEnvironment);
  const selectEnvironment = useAppStore((state) => state.selectEnvironment);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const radios = [
      ...event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="radio"]'),
    ];
    const at = radios.indexOf(event.target as HTMLInputElement);
    if (at === -1 || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = STEPS[event.key];
    let next: HTMLInputElement | undefined;
    if (step !== undefined) next = radios[(at + step + radios.length) % radios.length];
    else if (event.key === 'Home') next = radios[0];
    else if (event.key === 'End') next = radios.at(-1);
    if (next) {
      // The browser would check the next radio too: here only the focus moves.
      event.preventDefault();
      next.focus();
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      radios[at]!.click();
    }
  };

  return (
    // The focus goes to the radios inside (Tab lands on the chosen one); the group only steers their keys.
    // eslint-disable-next-line jsx-a11y-x/interactive-supports-focus
    <div role="radiogroup" aria-label="Environment" className="switcher" onKeyDown={onKeyDown}>
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
            {/* As wide as in bold, chosen or not (components/bold-width.tsx; written out here so the
                label's text stays in sight of the accessibility lint). */}
            <span
              className="bold-width"
              data-label={`${ENVIRONMENT_LABELS[id]}${id === 'production' ? ' — live' : ''}`}
            >
              <span>
                {ENVIRONMENT_LABELS[id]}
                {id === 'production' && <span className="switcher-live"> — live</span>}
              </span>
            </span>
          </span>
        </label>
      ))}
    </div>
  );
}
