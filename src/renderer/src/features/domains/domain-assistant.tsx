// The assistant: a labelled list of the steps with the current one marked,
// and the current step under its own heading, which takes the focus when the
// step changes so keyboard and screen-reader users land on it.

import { useEffect, useRef } from 'react';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { STEP_ORDER, STEP_TITLES, stepNumber, type StepKind } from './assistant-flow.ts';
import { AddDomainStep } from './add-domain-step.tsx';
import { CertificateStep } from './certificate-step.tsx';
import { CheckDnsStep } from './check-dns-step.tsx';
import { ConfigureDnsStep } from './configure-dns-step.tsx';
import type { AssistantSession } from './domains-slice.ts';
import { LiveStep } from './live-step.tsx';
import { PreconditionsStep } from './preconditions-step.tsx';
import { VerifyStep } from './verify-step.tsx';

export function DomainAssistant({ session }: { session: AssistantSession }) {
  const closeDomainAssistant = useAppStore((state) => state.closeDomainAssistant);
  const saveProblem = useAppStore((state) => state.domainSaveProblem);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { flow, project } = session;
  const domain = flow.domain;

  useEffect(() => {
    headingRef.current?.focus();
  }, [flow.kind]);

  return (
    <div className="domain-assistant">
      <div className="assistant-head">
        <button type="button" onClick={closeDomainAssistant}>
          Back to all domains
        </button>
        {domain && (
          <p className="assistant-domain">
            Domain: <strong>{domain.display}</strong>
            {domain.ascii !== domain.display && (
              <span className="muted">
                {' '}
                (written <code>{domain.ascii}</code> in DNS)
              </span>
            )}
          </p>
        )}
      </div>
      <div className="assistant-body">
        <StepList current={flow.kind} />
        <section aria-labelledby="assistant-step-heading" className="assistant-step">
          <h3 id="assistant-step-heading" ref={headingRef} tabIndex={-1}>
            Step {stepNumber(flow.kind)} of {STEP_ORDER.length}: {STEP_TITLES[flow.kind]}
          </h3>
          <StatusRegion tone="error">{saveProblem}</StatusRegion>
          {flow.kind === 'preconditions' && <PreconditionsStep flow={flow} />}
          {flow.kind === 'add-domain' && <AddDomainStep flow={flow} project={project} />}
          {flow.kind === 'configure-dns' && <ConfigureDnsStep flow={flow} project={project} />}
          {flow.kind === 'check-dns' && <CheckDnsStep flow={flow} project={project} />}
          {flow.kind === 'verify' && <VerifyStep flow={flow} />}
          {flow.kind === 'certificate' && <CertificateStep flow={flow} />}
          {flow.kind === 'live' && <LiveStep flow={flow} />}
        </section>
      </div>
    </div>
  );
}

function StepList({ current }: { current: StepKind }) {
  const currentNumber = stepNumber(current);
  return (
    <ol className="step-list" aria-label="Steps to attach a custom domain">
      {STEP_ORDER.map((kind) => {
        const number = stepNumber(kind);
        const state =
          number < currentNumber ? 'done' : number === currentNumber ? 'current' : 'todo';
        return (
          <li
            key={kind}
            className={`step-item step-${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="step-number" aria-hidden="true">
              {state === 'done' ? '✓' : number}
            </span>
            <span>{STEP_TITLES[kind]}</span>
            {state === 'done' && <span className="visually-hidden"> (done)</span>}
          </li>
        );
      })}
    </ol>
  );
}
