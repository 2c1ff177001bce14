// Removing a domain: in the dashboard it stops traffic at once, so the
// dialog says so and offers a redirect first. Here it forgets the saved
// progress.

import { useState, type RefObject } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { placeHostName } from '../../../../shared/domains-config.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { useAppStore } from '../../store-context.tsx';

export function RemoveDomainDialog({
  environment,
  domain,
  fallbackFocus,
  onClose,
  onAddRedirect,
}: {
  environment: EnvironmentId;
  domain: string;
  fallbackFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
  onAddRedirect: () => void;
}) {
  const removeDomain = useAppStore((state) => state.removeDomain);
  const config = useAppStore((state) => {
    const load = state.domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace.config : undefined;
  });
  const [busy, setBusy] = useState(false);
  const placed = placeHostName(domain);
  const ascii = placed.ok ? placed.place.ascii : domain;
  const usedBy =
    config === undefined
      ? []
      : [
          ...(config.primary === ascii ? ['it is the primary domain'] : []),
          ...config.redirects
            .filter((redirect) => redirect.to === ascii)
            .map((redirect) => `${redirect.from} redirects to it`),
        ];

  const remove = async () => {
    setBusy(true);
    const removed = await removeDomain(environment, domain);
    setBusy(false);
    if (removed) onClose();
  };

  return (
    <ConfirmDialog
      title={`Remove ${domain}?`}
      tone="danger"
      keepLabel="Cancel"
      confirmLabel={`Remove ${domain}`}
      onConfirm={() => void remove()}
      onDismiss={onClose}
      alternative={{ label: 'Add a redirect first', onSelect: onAddRedirect }}
      fallbackFocus={fallbackFocus}
      busy={busy}
    >
      <p>
        <strong>Removing a domain stops serving traffic at once.</strong> As soon as you remove{' '}
        {domain} in the dashboard (the menu next to the domain, then Remove), visitors to it get an
        error instead of the project.
      </p>
      <p>
        If the address was shared outside (links, emails, printed material, search results), add a
        redirect first, from {domain} to a domain that stays, so those visitors still arrive.
      </p>
      {usedBy.length > 0 && (
        <p className="message message-warning">
          The multi-domain configuration still uses {domain}: {usedBy.join('; ')}. Change it under
          “Several domains” too.
        </p>
      )}
      <p>Remove here forgets the assistant’s saved progress for {domain}.</p>
    </ConfirmDialog>
  );
}
