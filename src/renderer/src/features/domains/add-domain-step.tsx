// Step 2: the domain or subdomain to attach, checked as it is typed (Unicode
// and punycode both fine, a trailing dot dropped) and placed by the public
// suffix list: an apex gets an ALIAS/ANAME record, a subdomain a CNAME.

import { useId, useRef, useState, type FormEvent } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { placeHostName, type PlacedHostName } from '../../../../shared/domains-config.ts';
import { useAppStore } from '../../store-context.tsx';
import { ALL_PRECONDITIONS, type FlowOf } from './assistant-flow.ts';

export function AddDomainStep({
  flow,
  environment,
}: {
  flow: FlowOf<'add-domain'>;
  environment: EnvironmentId;
}) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const savedDomains = useAppStore((state) => {
    const load = state.domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace.progress : undefined;
  });
  const [text, setText] = useState(flow.domain?.display ?? '');
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const kindId = useId();
  const problemId = useId();
  const placed = placeHostName(text);
  const problem = edited && !placed.ok ? placed.message : undefined;
  const describedBy = [hintId, placed.ok ? kindId : undefined, problem ? problemId : undefined]
    .filter(Boolean)
    .join(' ');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    if (!placed.ok) {
      inputRef.current?.focus();
      return;
    }
    // The same domain spelled another way (punycode, capitals) continues its saved progress.
    const same = Object.values(savedDomains ?? {})
      .map((progress) => placeHostName(progress.domain))
      .find((other) => other.ok && other.place.ascii === placed.place.ascii);
    const domain = same?.ok ? same.place : placed.place;
    void setDomainFlow({ kind: 'configure-dns', domain });
  };

  return (
    <form noValidate onSubmit={onSubmit}>
      <p>
        Enter the domain the project should be served from, and add the same domain in the
        dashboard: project settings, section Domains, Add domain.
      </p>
      <label htmlFor={inputId}>Domain or subdomain</label>
      <p id={hintId} className="hint">
        For example shop.example.com or example.com, without https://. Letters from any alphabet are
        fine, e.g. bücher.example.com.
      </p>
      <div className="field-row">
        <input
          id={inputId}
          ref={inputRef}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setEdited(true);
          }}
        />
      </div>
      {placed.ok && (
        <p id={kindId} className="domain-kind">
          <DomainKindText place={placed.place} />
        </p>
      )}
      {problem && (
        <p id={problemId} className="field-problem">
          {problem}
        </p>
      )}
      <h4>What you should see</h4>
      <p>
        After you add the same domain in the dashboard, it lists the domain as not verified yet and
        shows the DNS record values, including the target you need in the next step. If the
        dashboard does not accept the domain, check its spelling and the three points of step 1.
      </p>
      <div className="step-actions">
        <button
          type="button"
          onClick={() =>
            void setDomainFlow({
              kind: 'preconditions',
              preconditions: ALL_PRECONDITIONS,
              ...(flow.domain ? { domain: flow.domain } : {}),
            })
          }
        >
          Back
        </button>
        <button type="submit" className="primary-button">
          Continue
        </button>
      </div>
    </form>
  );
}

export function DomainKindText({ place }: { place: PlacedHostName }) {
  const spelled =
    place.ascii !== place.display ? (
      <>
        {' '}
        In DNS it is written <code>{place.ascii}</code>.
      </>
    ) : null;
  return place.kind === 'apex' ? (
    <>
      <strong>{place.display}</strong> is an apex domain (the root of {place.registrableDomain}, no
      subdomain): it needs an ALIAS or ANAME record instead of a CNAME.{spelled}
    </>
  ) : (
    <>
      <strong>{place.display}</strong> is a subdomain of {place.registrableDomain}: it needs a CNAME
      record.{spelled}
    </>
  );
}
