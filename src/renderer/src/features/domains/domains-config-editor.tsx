// Several domains: the primary and redirects (status 301), checked as they
// are edited by the shared rules (src/shared/domains-config.ts), shown as the
// JSON the dashboard takes, copyable, and saved per project.

import { useId, useMemo, useState } from 'react';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import {
  domainsConfigJson,
  REDIRECT_STATUS,
  validateDomainsConfig,
  type ConfigField,
  type ConfigProblem,
  type DomainsConfigDraft,
} from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { outcomeMessage, TextField, type FieldMessage } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';
import { CopyButton } from './copy-button.tsx';
import { liveDomains, unservedWarning } from './served-domains.ts';

const EMPTY_DRAFT: DomainsConfigDraft = { primary: '', redirects: [] };

function sameField(a: ConfigField, b: ConfigField): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'redirect' && b.kind === 'redirect')
    return a.index === b.index && a.part === b.part;
  return true;
}

export function DomainsConfigEditor({ project }: { project: ProjectId }) {
  const draft = useAppStore((state) => state.domainsConfigDrafts[project]) ?? EMPTY_DRAFT;
  const workspace = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace : undefined;
  });
  const outcome = useAppStore((state) => state.domainsConfigOutcome);
  const editDomainsConfig = useAppStore((state) => state.editDomainsConfig);
  const saveDomainsConfig = useAppStore((state) => state.saveDomainsConfig);
  // Fields typed in, and whether Save was pressed: an empty field nobody has
  // touched yet is not a problem to point at.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [saveTried, setSaveTried] = useState(false);
  const validation = useMemo(() => validateDomainsConfig(draft), [draft]);
  const problems = validation.ok ? [] : validation.problems;
  const json = validation.ok ? domainsConfigJson(validation.config) : undefined;
  const reasonId = useId();
  const saving = outcome?.kind === 'working';
  const served = [
    ...(validation.ok ? [validation.config.primary] : []),
    ...liveDomains(workspace?.progress ?? {}),
  ];
  const primaryPlace = draft.primary.trim();

  const keyOf = (field: ConfigField): string =>
    field.kind === 'redirect' ? `${field.index}-${field.part}` : field.kind;
  const shown = (field: ConfigField, value: string): boolean =>
    saveTried || touched.has(keyOf(field)) || value.trim() !== '';
  /** One message per field: its first problem, else a warning about where it leads. */
  const messageFor = (field: ConfigField, value: string): FieldMessage | undefined => {
    if (!shown(field, value)) return undefined;
    const problem = problems.find((candidate) => sameField(candidate.field, field));
    if (problem) return { tone: 'error', text: problem.message };
    if (field.kind === 'redirect' && field.part === 'to') {
      // The primary is served even before the whole configuration is valid.
      const warning = unservedWarning(value, [...served, primaryPlace.toLowerCase()]);
      if (warning) return { tone: 'warning', text: warning };
    }
    return undefined;
  };
  const edit = (next: DomainsConfigDraft, field?: ConfigField) => {
    if (field) setTouched(new Set([...touched, keyOf(field)]));
    editDomainsConfig(project, next);
  };
  const editRedirect = (index: number, part: 'from' | 'to', value: string) =>
    edit(
      {
        ...draft,
        redirects: draft.redirects.map((redirect, i) =>
          i === index ? { ...redirect, [part]: value } : redirect,
        ),
      },
      { kind: 'redirect', index, part },
    );
  const statusProblems = (index: number): readonly ConfigProblem[] =>
    problems.filter((problem) =>
      sameField(problem.field, { kind: 'redirect', index, part: 'status' }),
    );

  return (
    <section aria-labelledby="domains-config-heading" className="domains-block domains-config">
      <h3 id="domains-config-heading">Several domains</h3>
      <p className="note">
        One primary domain serves the project; others redirect to it with status {REDIRECT_STATUS}{' '}
        (moved permanently). Enter the same in the dashboard.
      </p>

      <TextField
        label="Primary domain"
        value={draft.primary}
        message={messageFor({ kind: 'primary' }, draft.primary)}
        onChange={(event) => edit({ ...draft, primary: event.target.value }, { kind: 'primary' })}
      />

      {draft.redirects.length > 0 && (
        <ol className="redirects" aria-label="Redirects">
          {draft.redirects.map((redirect, index) => (
            <li key={index} className="redirect">
              <TextField
                label={`Redirect ${index + 1}: from`}
                value={redirect.from}
                message={messageFor({ kind: 'redirect', index, part: 'from' }, redirect.from)}
                onChange={(event) => editRedirect(index, 'from', event.target.value)}
              />
              <TextField
                label={`Redirect ${index + 1}: to`}
                value={redirect.to}
                message={messageFor({ kind: 'redirect', index, part: 'to' }, redirect.to)}
                onChange={(event) => editRedirect(index, 'to', event.target.value)}
              />
              <div className="redirect-end">
                <span className="redirect-status">
                  {redirect.status === REDIRECT_STATUS
                    ? `${redirect.status}, moved permanently`
                    : `Status ${redirect.status}`}
                </span>
                <button
                  type="button"
                  className="small-button"
                  onClick={() => {
                    setTouched(new Set());
                    edit({ ...draft, redirects: draft.redirects.filter((_, i) => i !== index) });
                  }}
                >
                  Remove redirect {index + 1}
                </button>
              </div>
              {statusProblems(index).map((problem) => (
                <p key={problem.code} className="text-field-error">
                  {problem.message}
                </p>
              ))}
            </li>
          ))}
        </ol>
      )}
      <div className="step-actions">
        <button
          type="button"
          onClick={() =>
            edit({
              ...draft,
              redirects: [
                ...draft.redirects,
                { from: '', to: primaryPlace, status: REDIRECT_STATUS },
              ],
            })
          }
        >
          Add a redirect
        </button>
      </div>

      {json !== undefined && (
        <div className="config-json-block">
          <pre className="config-json selectable" aria-label="The configuration as JSON">
            {json}
          </pre>
          <CopyButton text={json} label="Copy JSON" what="the configuration as JSON" />
        </div>
      )}

      <div className="step-actions">
        <button
          type="button"
          className="primary-button"
          aria-disabled={!validation.ok || saving || undefined}
          aria-describedby={!validation.ok ? reasonId : undefined}
          onClick={() => {
            setSaveTried(true);
            if (validation.ok && !saving) void saveDomainsConfig(project, validation.config);
          }}
        >
          {saving ? 'Saving…' : 'Save configuration'}
        </button>
        {workspace?.config !== undefined && (
          <button type="button" onClick={() => void saveDomainsConfig(project, undefined)}>
            Clear the saved configuration
          </button>
        )}
        {!validation.ok && (
          <span id={reasonId} className="muted">
            {problems.length === 0 || primaryPlace === ''
              ? 'Enter the primary domain to save.'
              : `Put right ${problems.length === 1 ? 'the problem' : `the ${problems.length} problems`} above to save.`}
          </span>
        )}
      </div>
      <StatusRegion
        label="Configuration status"
        tone={outcome?.kind === 'failed' ? 'error' : 'success'}
      >
        {outcomeMessage(outcome)?.text}
      </StatusRegion>
    </section>
  );
}
