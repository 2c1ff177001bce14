// Step 6: the certificate, issued by the platform after verification. A check
// from this computer shows what the live site presents; if there is still no
// certificate 30 minutes after verification, the interface's troubleshooting
// steps are laid out, with the DNS and CAA check at hand.

import type { DomainBadge } from '../../../../shared/domain-watch.ts';
import type { CertificateReport, CertificateStatus } from '../../../../shared/domains.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { CERTIFICATE_WAIT_MS, type FlowOf } from './assistant-flow.ts';
import { DnsCheckResult, FindingItem } from './dns-check-result.tsx';
import type { CheckState } from './domains-slice.ts';
import { CERTIFICATE_STATUS_WORDS, describeIsoMoment, describeMoment } from './domain-words.ts';
import { useNow } from '../../components/use-now.ts';
import { useEffect } from 'react';
import { OwnChecksLine, useOpenDomainWatch } from './domain-badge.tsx';

export function CertificateStep({ flow }: { flow: FlowOf<'certificate'> }) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const runCertificateCheck = useAppStore((state) => state.runCertificateCheck);
  const certificateCheck = useAppStore((state) => state.certificateCheck);
  const now = useNow(30_000);
  const { domain, verifiedAt, lastCheck } = flow;
  const deadline = verifiedAt + CERTIFICATE_WAIT_MS;
  const certificateValid =
    certificateCheck.kind === 'done' && certificateCheck.report.status === 'valid';
  const overdue = now >= deadline && !certificateValid;
  const checking = certificateCheck.kind === 'checking';
  const watch = useOpenDomainWatch(domain.display);
  // Main keeps one verdict, so after a check the badge says what the check found.
  const verdictShown =
    certificateCheck.kind === 'done' &&
    watch?.badge !== undefined &&
    watch.badge === CERTIFICATE_BADGES[certificateCheck.report.status];

  return (
    <>
      <p>
        Verified {describeMoment(verifiedAt, now)}. The platform now issues the SSL certificate for{' '}
        <strong>{domain.ascii}</strong> by itself, usually within a couple of minutes. There is
        nothing to install and nothing to renew: the platform renews it too.
      </p>
      <h4>What you should see</h4>
      <p>
        In the dashboard the domain shows a certificate, and https://{domain.ascii} opens with a
        padlock. You can also check from here.
      </p>
      <div className="step-actions">
        <button
          type="button"
          aria-disabled={checking || undefined}
          onClick={() => void runCertificateCheck()}
        >
          {checking ? 'Checking the certificate…' : 'Check certificate'}
        </button>
      </div>
      {/* Main checks the certificate by itself after verification; its latest finding. */}
      <OwnChecksLine
        domain={domain.display}
        what="the certificate"
        resultShown={certificateCheck.kind === 'done'}
      />
      <CertificateResult check={certificateCheck} verdictShown={verdictShown} />

      {overdue ? (
        <Troubleshooting />
      ) : (
        !certificateValid && (
          <p className="note">
            If there is still no certificate at {describeMoment(deadline, now)} (30 minutes after
            verification), the assistant opens here by itself and shows what to do.
          </p>
        )
      )}

      <div className="step-actions">
        <button
          type="button"
          onClick={() =>
            void setDomainFlow(
              lastCheck?.status === 'ready'
                ? { kind: 'verify', domain, lastCheck: { status: 'ready', at: lastCheck.at } }
                : { kind: 'check-dns', domain, ...(lastCheck ? { lastCheck } : {}) },
            )
          }
        >
          Back
        </button>
        <button
          type="button"
          className="primary-button"
          onClick={() =>
            void setDomainFlow({
              kind: 'live',
              domain,
              verifiedAt,
              ...(lastCheck ? { lastCheck } : {}),
            })
          }
        >
          The certificate is in place: continue
        </button>
      </div>
    </>
  );
}

/** The badge a certificate check's status comes to, for the verdicts the badge names itself. */
const CERTIFICATE_BADGES: Readonly<Partial<Record<CertificateStatus, DomainBadge>>> = {
  invalid: 'certificate-problem',
  missing: 'certificate-missing',
  unreachable: 'site-unreachable',
};

/**
 * What the certificate check found. `verdictShown`: the badge above says the
 * verdict already, so the result says only what was found.
 */
export function CertificateResult({
  check,
  verdictShown,
}: {
  check: CheckState<CertificateReport>;
  verdictShown: boolean;
}) {
  const tone =
    check.kind === 'done'
      ? check.report.status === 'valid'
        ? 'success'
        : 'warning'
      : check.kind === 'failed'
        ? 'error'
        : 'info';
  return (
    <StatusRegion label="Certificate check result" tone={tone}>
      {check.kind === 'checking' ? (
        'Checking the certificate…'
      ) : check.kind === 'failed' ? (
        <p>
          <strong>The check could not run.</strong> {check.failure.message}
        </p>
      ) : check.kind === 'done' ? (
        <CertificateDetails report={check.report} verdictShown={verdictShown} />
      ) : undefined}
    </StatusRegion>
  );
}

function CertificateDetails({
  report,
  verdictShown,
}: {
  report: CertificateReport;
  verdictShown: boolean;
}) {
  const now = useNow(60_000);
  const certificate = report.certificate;
  const where = report.host === report.domain ? '' : ` at ${report.host}`;
  const codes = new Set(report.findings.map((finding) => finding.code));
  // What a finding says in its sentence is not listed again beside it.
  const namesSaid = codes.has('certificate-name-mismatch');
  const issuerSaid = codes.has('certificate-ok');
  return (
    <div>
      {!verdictShown && (
        <p>
          <strong>{CERTIFICATE_STATUS_WORDS[report.status]}</strong>
        </p>
      )}
      <p className="muted">
        Checked https://{report.domain}
        {where}
        {report.port === 443 ? '' : `, port ${report.port}`},{' '}
        {describeIsoMoment(report.checkedAt, now)}.
      </p>
      {certificate && (
        <dl className="finding-details">
          {!issuerSaid && (
            <>
              <dt>Issued by</dt>
              <dd>{certificate.issuer.organization ?? certificate.issuer.text}</dd>
            </>
          )}
          {!namesSaid && (
            <>
              <dt>Names covered</dt>
              <dd>{certificate.dnsNames.length > 0 ? certificate.dnsNames.join(', ') : 'none'}</dd>
            </>
          )}
          {!issuerSaid && (
            <>
              <dt>Valid until</dt>
              <dd>
                {describeIsoMoment(certificate.validTo, now)} ({certificate.daysToExpiry} days left)
              </dd>
            </>
          )}
        </dl>
      )}
      <ul className="findings">
        {report.findings.map((finding, index) => (
          <li
            key={`${finding.code}-${index}`}
            className={`finding finding-${finding.severity}`}
            data-code={finding.code}
          >
            {finding.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The interface's three steps when the certificate is late, with the DNS and
 * CAA check at hand: run at once when they open, so the first two steps have
 * their answers.
 */
function Troubleshooting() {
  const runDnsCheck = useAppStore((state) => state.runDnsCheck);
  const dnsCheck = useAppStore((state) => state.dnsCheck);
  const idle = dnsCheck.kind === 'idle';
  useEffect(() => {
    if (idle) void runDnsCheck();
  }, [idle, runDnsCheck]);
  const caa =
    dnsCheck.kind === 'done'
      ? dnsCheck.report.findings.find((f) => f.code === 'caa-ok' || f.code === 'caa-blocks-ca')
      : undefined;
  const checking = dnsCheck.kind === 'checking';

  return (
    <section
      aria-labelledby="certificate-late-heading"
      className="message message-warning troubleshooting"
    >
      <h4 id="certificate-late-heading">No certificate 30 minutes after verification</h4>
      <p>The platform should have issued it by now. Work through these three steps:</p>
      <ol className="instructions">
        <li>
          <strong>Confirm the domain still verifies.</strong> The DNS check below, run as these
          steps opened, must say Ready.{' '}
          <button
            type="button"
            aria-disabled={checking || undefined}
            onClick={() => void runDnsCheck()}
          >
            {checking ? 'Checking…' : 'Check DNS again'}
          </button>
          <DnsCheckResult check={dnsCheck} label="DNS check result" />
        </li>
        <li>
          <strong>Check that CAA records do not block the certificate authority.</strong> CAA
          records say which authorities may issue certificates for the domain.
          {caa ? (
            <ul className="findings">
              <FindingItem finding={caa} />
            </ul>
          ) : (
            <span> The DNS check above shows what the CAA records allow.</span>
          )}
        </li>
        <li>
          <strong>Press Re-verify in the dashboard</strong> (project settings, Domains) to trigger a
          new attempt. Then wait a couple of minutes and check the certificate again.
        </li>
      </ol>
    </section>
  );
}
