// Settings of one environment at a time: the sandbox is built in, production
// and staging need an address and a key. They open on the environment the
// header has chosen and follow it when it switches; another environment's
// may be set up from here without working in it (Production's key, say,
// without Production's live orders on screen), and the screen says plainly
// whose settings these are and which environment the app is working in.

import { useEffect, useId, useRef } from 'react';
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
  const active = useAppStore((state) => state.activeEnvironment);
  const selectEnvironment = useAppStore((state) => state.selectEnvironment);
  const view = useAppStore((state) =>
    state.environments.find((candidate) => candidate.id === environment),
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inUseId = useId();
  const label = ENVIRONMENT_LABELS[environment];

  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading, environment]);

  // A switch in the header brings its environment's settings.
  const shownActive = useRef(active);
  useEffect(() => {
    if (shownActive.current === active) return;
    shownActive.current = active;
    showSettings(active);
  }, [active, showSettings]);

  return (
    <section aria-labelledby="settings-heading" className="screen settings-screen">
      <h2 id="settings-heading">Settings</h2>
      {/* The environments' tabs and their settings, boxed apart from what is the whole app's. */}
      <section aria-label="Environments" className="settings-environments">
        <nav aria-label="Environment settings" className="settings-nav">
          {ENVIRONMENT_IDS.map((id) => (
            <button
              key={id}
              type="button"
              aria-current={id === environment ? 'true' : undefined}
              aria-describedby={id === active ? inUseId : undefined}
              onClick={() => showSettings(id)}
            >
              {ENVIRONMENT_LABELS[id]}
              {id === active && (
                // Its words describe the button rather than name it: the tab is still "Sandbox".
                <span id={inUseId} className="settings-in-use" aria-hidden="true">
                  {' '}
                  · in use
                </span>
              )}
            </button>
          ))}
        </nav>

        <section aria-labelledby="settings-environment-heading" className="settings-panel">
          <h3 id="settings-environment-heading" ref={headingRef} tabIndex={-1}>
            {label} settings
          </h3>
          {/* The header's band says it for the environment in use; another one's gets its own. */}
          {environment !== active && <EnvironmentBand environment={environment} />}
          <p className="settings-whose">
            {environment === active ? (
              <>
                The settings of {label}, the environment Store Admin is working in (chosen in the
                header).
              </>
            ) : (
              <>
                The settings of {label}. Store Admin is working in {ENVIRONMENT_LABELS[active]};
                what you set here does not switch to {label}.{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => void selectEnvironment(environment)}
                >
                  Work in {label}
                </button>
              </>
            )}
          </p>
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
      </section>
      <UpdateAddressForm />
    </section>
  );
}
