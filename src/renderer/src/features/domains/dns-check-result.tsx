// What the local DNS check found, in a live region: the overall status in
// words with what to do next (for a check that waits, its Waiting item says
// that), then the findings grouped by what they ask of
// the clerk (must fix, waiting, fine), each with what DNS holds against what
// it should hold.

import { useId } from 'react';
import type { DnsFinding, DomainCheckReport } from '../../../../shared/domains.ts';
import type { Failure } from '../../../../shared/failures.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useNow } from '../../components/use-now.ts';
import type { CheckState } from './domains-slice.ts';
import { DNS_STATUS_WORDS, describeIsoMoment } from './domain-words.ts';

export function DnsCheckResult({
  check,
  label,
}: {
  check: CheckState<DomainCheckReport>;
  label: string;
}) {
  const tone =
    check.kind === 'done'
      ? DNS_STATUS_WORDS[check.report.status].tone
      : check.kind === 'failed'
        ? 'error'
        : 'info';
  return (
    <StatusRegion label={label} tone={tone} className="dns-check-result">
      {check.kind === 'checking' ? (
        'Checking DNS…'
      ) : check.kind === 'failed' ? (
        <CheckFailure failure={check.failure} />
      ) : check.kind === 'done' ? (
        <Report report={check.report} />
      ) : undefined}
    </StatusRegion>
  );
}

function CheckFailure({ failure }: { failure: Failure }) {
  return (
    <p>
      <strong>The check could not run.</strong> {failure.message}
    </p>
  );
}

/** The groups a result is read in, most urgent first; each shown only when it has findings. */
const GROUPS = [
  { key: 'fix', title: 'Must fix' },
  { key: 'unanswered', title: 'Could not check' },
  { key: 'waiting', title: 'Waiting' },
  { key: 'note', title: 'Worth a look' },
  { key: 'fine', title: 'Fine' },
] as const;
type GroupKey = (typeof GROUPS)[number]['key'];

function groupOf(finding: DnsFinding): GroupKey {
  if (finding.code === 'resolver-error') return 'unanswered';
  switch (finding.severity) {
    case 'error':
      return 'fix';
    case 'pending':
      return 'waiting';
    case 'warning':
      return 'note';
    case 'ok':
      return 'fine';
  }
}

function Report({ report }: { report: DomainCheckReport }) {
  const words = DNS_STATUS_WORDS[report.status];
  const now = useNow(60_000);
  return (
    <div>
      <p className={`dns-status dns-status-${words.tone}`}>
        <strong>{words.title}</strong>
        {words.next && <> {words.next}</>}
      </p>
      {GROUPS.map(({ key, title }) => {
        const findings = report.findings.filter((finding) => groupOf(finding) === key);
        return findings.length === 0 ? null : (
          <FindingGroup key={key} title={title} findings={findings} />
        );
      })}
      <p className="muted">
        Checked {describeIsoMoment(report.checkedAt, now)}, asking{' '}
        {report.resolver === 'system' ? 'this computer’s DNS servers' : report.resolver}.
      </p>
    </div>
  );
}

function FindingGroup({ title, findings }: { title: string; findings: readonly DnsFinding[] }) {
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId} className="finding-group">
      <h5 id={headingId}>
        {title} ({findings.length})
      </h5>
      <ul className="findings">
        {findings.map((finding, index) => (
          <FindingItem key={`${finding.code}-${index}`} finding={finding} />
        ))}
      </ul>
    </div>
  );
}

export function FindingItem({ finding }: { finding: DnsFinding }) {
  const { found, expected, name, lookups } = finding.details ?? {};
  return (
    <li className={`finding finding-${finding.severity}`} data-code={finding.code}>
      {finding.message}
      {(found !== undefined || expected !== undefined || name !== undefined || lookups) && (
        <dl className="finding-details">
          {name !== undefined && (
            <>
              <dt>Where</dt>
              <dd>{name}</dd>
            </>
          )}
          {found !== undefined && (
            <>
              <dt>Found</dt>
              <dd>{found.length === 0 ? 'nothing' : found.join(', ')}</dd>
            </>
          )}
          {expected !== undefined && (
            <>
              <dt>Expected</dt>
              <dd>{expected.join(', ')}</dd>
            </>
          )}
          {lookups !== undefined && (
            <>
              <dt>Lookups without an answer</dt>
              <dd>{lookups.join(', ')}</dd>
            </>
          )}
        </dl>
      )}
    </li>
  );
}
