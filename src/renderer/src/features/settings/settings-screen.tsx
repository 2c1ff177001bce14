// Settings of one environment at a time: the sandbox is built in, production
// and staging need an address and a key.

import { useEffect, useRef } from 'react';
import {
  ENVIRONMENT_IDS,
  ENVIRONMENT_LABELS,
  type EnvironmentId,
} from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand } from '../environments/environment-band.tsx';
import { ApiKeyForm } from './api-key-form.tsx';
import { BaseUrlForm } from './base-url-form.tsx';
import { ConnectionTest } from './connection-test.tsx';
import { UpdateAddressForm } from './update-address-form.tsx';
import './settings.css';

export function SettingsScreen({
  environment,
  focusHeading,
}: {
  environment: EnvironmentId;
  focusHeading: boolean;
}) {
  const showSettings = useAppStore((state) => state.showSettings);
  const view = useAppStore((state) =>
    state.environments.find((candidate) => candidate.id === environment),
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const label = ENVIRONMENT_LABELS[environment];

  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading, environment]);

  return (
    <section aria-labelledby="settings-heading" className="screen settings-screen">
      <h2 id="settings-heading">Settings</h2>
      <nav aria-label="Environment settings" className="settings-nav">
        {ENVIRONMENT_IDS.map((id) => (
          <button
            key={id}
            type="button"
            aria-current={id === environment ? 'true' : undefined}
            onClick={() => showSettings(id)}
          >
            {ENVIRONMENT_LABELS[id]}
          </button>
        ))}
      </nav>

      <section aria-labelledby="settings-environment-heading" className="settings-panel">
        <h3 id="settings-environment-heading" ref={headingRef} tabIndex={-1}>
          {label} settings
        </h3>
        <EnvironmentBand environment={environment} />
        {environment === 'sandbox' ? (
          <p className="settings-note">
            A copy of the store service on this computer, with demo data, built into Store Admin:
            nothing done here reaches a real store. It has the Pro plan&apos;s limits and its own
            key, made anew each time Store Admin starts, so there is nothing to set.
          </p>
        ) : (
          <>
            <BaseUrlForm
              key={`url-${environment}`}
              environment={environment}
              savedUrl={view?.baseUrl}
            />
            <ApiKeyForm key={`key-${environment}`} environment={environment} status={view?.key} />
          </>
        )}
        <ConnectionTest environment={environment} />
      </section>
      <UpdateAddressForm />
    </section>
  );
}
