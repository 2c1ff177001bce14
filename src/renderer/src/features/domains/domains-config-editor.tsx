// Several domains: the primary and redirects (status 301), checked as they
// are edited by the shared rules (src/shared/domains-config.ts), shown as the
// JSON the dashboard takes, copyable, and saved per environment.

import { useId, useMemo, type RefObject } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import {
  domainsConfigJson,
  REDIRECT_STATUS,
  validateDomainsConfig,
  type ConfigField,
  type ConfigProblem,
  type DomainsConfigDraft,
} from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { CopyButton } from './copy-button.tsx';

const EMPTY_DRAFT: DomainsConfigDraft = { primary: '', redirects: [] };

function sameField(a: ConfigField, b: ConfigField): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'redirect' && b.kind === 'redirect')
    return a.index === b.index && a.part === b.part;
  return true;
}

export function DomainsConfigEditor({
  environment,
  headingRef,
}: {
  environment: EnvironmentId;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const draft = useAppStore((state) => state.domainsConfigDrafts[environment]) ?? EMPTY_DRAFT;
  const saved = useAppStore((state) => {
    const load = state.domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace.config : undefined;
  });
  const outcome = useAppStore((state) => state.domainsConfigOutcome);
  const editDomainsConfig = useAppStore((state) => state.editDomainsConfig);
  const saveDomainsConfig = useAppStore((state) => state.saveDomainsConfig);
  const validation = useMemo(() => validateDomainsConfig(draft), [draft]);
  const pristine = draft.primary.trim() === '' && draft.redirects.length === 0;
  const problems = pristine || validation.ok ? [] : validation.problems;
  const json = validation.ok ? domainsConfigJson(validation.config) : undefined;
  const summaryId = useId();
  const primaryId = useId();
  const saving = outcome?.kind === 'working';

  const problemsFor = (field: ConfigField): readonly ConfigProblem[] =>
    problems.filter((problem) => sameField(problem.field, field));
  const edit = (next: DomainsConfigDraft) => editDomainsConfig(environment, next);
  const editRedirect = (index: number, part: 'from' | 'to', value: string) =>
    edit({
      ...draft,
      redirects: draft.redirects.map((redirect, i) =>
        i === index ? { ...redirect, [part]: value } : redirect,
      ),
    });

  return (
    <section aria-labelledby="domains-config-heading" className="domains-block domains-config">
      <h3 id="domains-config-heading" ref={headingRef} tabIndex={-1}>
        Several domains
      </h3>
      <p>
        A project can have several domains: one primary domain, which serves the project, and others
        that redirect to a served domain with status {REDIRECT_STATUS} (moved permanently). Enter
        the same configuration in the dashboard.
      </p>

      <Field
        id={primaryId}
        label="Primary domain"
        value={draft.primary}
        problems={problemsFor({ kind: 'primary' })}
        onChange={(value) => edit({ ...draft, primary: value })}
      />

      <h4>Redirects</h4>
      {draft.redirects.length === 0 ? (
        <p className="empty">No redirects.</p>
      ) : (
        <ol className="redirects">
          {draft.redirects.map((redirect, index) => (
            <li key={index}>
              <fieldset className="redirect">
                <legend>Redirect {index + 1}</legend>
                <Field
                  id={`${primaryId}-redirect-${index}-from`}
                  label={`Redirect ${index + 1}: from`}
                  value={redirect.from}
                  problems={problemsFor({ kind: 'redirect', index, part: 'from' })}
                  onChange={(value) => editRedirect(index, 'from', value)}
                />
                <Field
                  id={`${primaryId}-redirect-${index}-to`}
                  label={`Redirect ${index + 1}: to`}
                  value={redirect.to}
                  problems={problemsFor({ kind: 'redirect', index, part: 'to' })}
                  onChange={(value) => editRedirect(index, 'to', value)}
                />
                <p className="redirect-status">
                  Status: {redirect.status}
                  {redirect.status === REDIRECT_STATUS ? ' (moved permanently)' : ''}
                </p>
                {problemsFor({ kind: 'redirect', index, part: 'status' }).map((problem) => (
                  <p key={problem.code} className="field-problem">
                    {problem.message}
                  </p>
                ))}
                <button
                  type="button"
                  className="small-button"
                  onClick={() =>
                    edit({ ...draft, redirects: draft.redirects.filter((_, i) => i !== index) })
                  }
                >
                  Remove redirect {index + 1}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      <button
        type="button"
        onClick={() =>
          edit({
            ...draft,
            redirects: [
              ...draft.redirects,
              { from: '', to: draft.primary.trim(), status: REDIRECT_STATUS },
            ],
          })
        }
      >
        Add a redirect
      </button>

      <StatusRegion label="Configuration check" tone={problems.length > 0 ? 'error' : 'info'}>
        {problems.length > 0 ? (
          <div id={summaryId}>
            <p>
              <strong>
                The configuration has{' '}
                {problems.length === 1 ? 'a problem' : `${problems.length} problems`}:
              </strong>
            </p>
            <ul>
              {problems.map((problem, index) => (
                <li key={`${problem.code}-${index}`}>{problem.message}</li>
              ))}
            </ul>
          </div>
        ) : undefined}
      </StatusRegion>

      <h4>As JSON</h4>
      {json !== undefined ? (
        <>
          <pre className="config-json selectable" aria-label="The configuration as JSON">
            {json}
          </pre>
          <CopyButton text={json} label="Copy JSON" what="the configuration as JSON" />
        </>
      ) : (
        <p className="note">
          The JSON appears here once the configuration is complete and has no problems.
        </p>
      )}

      <div className="step-actions">
        <button
          type="button"
          className="primary-button"
          aria-disabled={!validation.ok || saving || undefined}
          aria-describedby={problems.length > 0 ? summaryId : undefined}
          onClick={() => {
            if (validation.ok && !saving) void saveDomainsConfig(environment, validation.config);
          }}
        >
          Save configuration
        </button>
        {saved !== undefined && (
          <button type="button" onClick={() => void saveDomainsConfig(environment, undefined)}>
            Clear the saved configuration
          </button>
        )}
      </div>
      <StatusRegion
        label="Configuration status"
        tone={outcome?.kind === 'failed' ? 'error' : outcome?.kind === 'done' ? 'success' : 'info'}
      >
        {outcome?.message}
      </StatusRegion>
    </section>
  );
}

function Field({
  id,
  label,
  value,
  problems,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  problems: readonly ConfigProblem[];
  onChange: (value: string) => void;
}) {
  const problemId = `${id}-problem`;
  return (
    <div className="config-field">
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        <input
          id={id}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={problems.length > 0 ? true : undefined}
          aria-describedby={problems.length > 0 ? problemId : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      {problems.length > 0 && (
        <div id={problemId}>
          {problems.map((problem) => (
            <p key={problem.code} className="field-problem">
              {problem.message}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}
