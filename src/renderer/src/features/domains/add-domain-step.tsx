// Step 2: the domain or subdomain to attach, checked as it is typed (Unicode
// and punycode both fine, a trailing dot dropped) and placed by the public
// suffix list: an apex gets an ALIAS/ANAME record, a subdomain a CNAME. An
// address pasted from a browser ("https://Shop.Example.com/") is cleaned to
// its name, and the field says so.

import { useId, useRef, useState, type FormEvent } from 'react';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import {
  hostNameFromAddress,
  placeHostName,
  type PlacedHostName,
} from '../../../../shared/domains-config.ts';
import { useAppStore } from '../../store-context.tsx';
import { TextField } from '../../components/text-field.tsx';
import { ALL_PRECONDITIONS, flowFromProgress, type FlowOf } from './assistant-flow.ts';

export function AddDomainStep({
  flow,
  project,
}: {
  flow: FlowOf<'add-domain'>;
  project: ProjectId;
}) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const savedDomains = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace.progress : undefined;
  });
  const [text, setText] = useState(flow.domain?.display ?? '');
  const [edited, setEdited] = useState(false);
  /** The address the name was cleaned from, said under the field until it is typed in again. */
  const [cleanedFrom, setCleanedFrom] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  const kindId = useId();
  const cleaned = hostNameFromAddress(text);
  const placed = placeHostName(cleaned ?? text);
  const problem = edited && !placed.ok ? placed.message : undefined;

  const clean = (value: string): string => {
    const name = hostNameFromAddress(value);
    if (name === undefined) return value;
    setCleanedFrom(value.trim());
    return name;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    setText(clean(text));
    if (!placed.ok) {
      inputRef.current?.focus();
      return;
    }
    // The same domain spelled another way (punycode, capitals) is the one
    // already saved: it carries on from its own step.
    const same = Object.values(savedDomains ?? {}).find((progress) => {
      const other = placeHostName(progress.domain);
      return other.ok && other.place.ascii === placed.place.ascii;
    });
    const resumed =
      same && same.domain !== flow.domain?.display ? flowFromProgress(same) : undefined;
    const samePlace = same ? placeHostName(same.domain) : undefined;
    void setDomainFlow(
      resumed ?? { kind: 'configure-dns', domain: samePlace?.ok ? samePlace.place : placed.place },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit}>
      <p>
        The domain to serve the project from. Add the same in the dashboard: project settings,
        Domains, Add domain. It then shows the record values for the next step.
      </p>
      <TextField
        ref={inputRef}
        label="Domain or subdomain"
        hint="E.g. shop.example.com or example.com, without https://. Any alphabet is fine."
        value={text}
        describedBy={placed.ok ? kindId : undefined}
        message={
          problem !== undefined
            ? { tone: 'error', text: problem }
            : cleanedFrom !== undefined && placed.ok
              ? { tone: 'warning', text: `Kept the name only, from ${cleanedFrom}.` }
              : undefined
        }
        onChange={(event) => {
          setText(event.target.value);
          setCleanedFrom(undefined);
          setEdited(true);
        }}
        onPaste={(event) => {
          // An address pasted over the whole field (or into an empty one) becomes its name.
          const input = event.currentTarget;
          const whole = input.selectionStart === 0 && input.selectionEnd === input.value.length;
          const pasted = event.clipboardData.getData('text');
          if (!whole || hostNameFromAddress(pasted) === undefined) return;
          event.preventDefault();
          setText(clean(pasted));
          setEdited(true);
        }}
      />
      {placed.ok && (
        <p id={kindId} className="domain-kind">
          <DomainKindText place={placed.place} />
        </p>
      )}
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
