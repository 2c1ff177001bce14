// Step 1: the three preconditions of the interface. Each one not ticked says
// what to do if it is not true yet, as help rather than a problem (nothing is
// wrong before the clerk answers); the assistant goes on only when all three
// are, and says so beside Continue. The step's heading names it, once.

import { useId } from 'react';
import { useAppStore } from '../../store-context.tsx';
import { allMet, type FlowOf, type Preconditions } from './assistant-flow.ts';

const ITEMS: readonly {
  readonly key: keyof Preconditions;
  readonly label: string;
  /** What to do if it is not true yet, starting "If not, ". */
  readonly todo: string;
}[] = [
  {
    key: 'paidPlan',
    label: 'The project is on a paid plan (Pro or above).',
    todo: 'If not, change the plan in the dashboard first (custom domains need Pro or above), then come back.',
  },
  {
    key: 'dnsAccess',
    label: 'I can change the DNS settings at the domain’s registrar (or DNS provider).',
    todo: 'If not, ask whoever manages the domain (your IT team, an agency, or the person who registered it) for access, or to create the record in step 3 for you.',
  },
  {
    key: 'deployed',
    label: 'The project has been deployed successfully.',
    todo: 'If not, deploy the project first and wait until the dashboard shows the deployment succeeded.',
  },
];

export function PreconditionsStep({ flow }: { flow: FlowOf<'preconditions'> }) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const reasonId = useId();
  const ready = allMet(flow.preconditions);
  const missing = ITEMS.filter((item) => !flow.preconditions[item.key]).length;

  const toggle = (key: keyof Preconditions, value: boolean) => {
    void setDomainFlow({ ...flow, preconditions: { ...flow.preconditions, [key]: value } });
  };

  const onContinue = () => {
    if (!ready) return;
    void setDomainFlow(
      flow.domain ? { kind: 'add-domain', domain: flow.domain } : { kind: 'add-domain' },
    );
  };

  return (
    <>
      <fieldset className="preconditions">
        <legend>The dashboard takes a custom domain only when all three are true:</legend>
        {ITEMS.map((item) => {
          const ticked = flow.preconditions[item.key];
          const todoId = `precondition-${item.key}-todo`;
          return (
            <div key={item.key} className="precondition">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={ticked}
                  aria-describedby={ticked ? undefined : todoId}
                  onChange={(event) => toggle(item.key, event.target.checked)}
                />
                {item.label}
              </label>
              {!ticked && (
                <p id={todoId} className="hint precondition-todo">
                  {item.todo}
                </p>
              )}
            </div>
          );
        })}
      </fieldset>
      <div className="step-actions">
        <button
          type="button"
          className="primary-button"
          aria-disabled={!ready || undefined}
          aria-describedby={ready ? undefined : reasonId}
          onClick={onContinue}
        >
          Continue
        </button>
        {!ready && (
          <span id={reasonId} className="muted">
            {missing === ITEMS.length
              ? 'Tick all three above to continue.'
              : missing === 1
                ? 'One point is still to tick.'
                : 'Two points are still to tick.'}
          </span>
        )}
      </div>
    </>
  );
}
