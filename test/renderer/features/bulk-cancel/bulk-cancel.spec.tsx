import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BulkCancelDialog } from '../../../../src/renderer/src/features/bulk-cancel/bulk-cancel-dialog.tsx';
import {
  BulkCancelPanel,
  durationWords,
} from '../../../../src/renderer/src/features/bulk-cancel/bulk-cancel-panel.tsx';
import { bulkResultsCsv } from '../../../../src/renderer/src/features/bulk-cancel/bulk-results-csv.ts';
import { RowSelection } from '../../../../src/renderer/src/features/bulk-cancel/row-selection.ts';
import { connectEvents, createAppStore } from '../../../../src/renderer/src/store.ts';
import { StoreProvider } from '../../../../src/renderer/src/store-context.tsx';
import { makeDataDir, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import type { TestSandboxOptions } from '../../support/test-app-shapes.ts';
import { tableOf } from '../orders/table/table-of.ts';

async function setup(dataDir?: string, sandbox?: TestSandboxOptions) {
  const app = await startTestApp({
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(sandbox ? { sandbox } : {}),
  });
  const store = createAppStore(app.api, app.orderStreams);
  const disconnect = connectEvents(app.api, store);
  const user = userEvent.setup({ delay: null });
  render(
    <StoreProvider store={store}>
      <BulkCancelDialog />
      <BulkCancelPanel environment="sandbox" />
    </StoreProvider>,
  );
  return { app, store, user, disconnect };
}

/** Each count of the strip by its label: a list while it runs, buttons once it is over. */
function countsOf(panel: HTMLElement): Record<string, string> {
  return Object.fromEntries(
    [...panel.querySelectorAll('.bulk-count')].map((node) => [
      node.querySelector('dt, .bulk-count-label')!.textContent,
      node.querySelector('dd, strong')!.textContent,
    ]),
  );
}

describe('bulk cancel', () => {
  it('asks first, naming the count and the environment, then shows progress per outcome to the end', async () => {
    const { app, store, user, disconnect } = await setup();
    const ids = [
      ...app.sandbox.orderIds({ status: 'pending' }).slice(0, 12),
      ...app.sandbox.orderIds({ status: 'shipped' }).slice(0, 3),
    ];
    act(() => store.getState().askBulkCancel('sandbox', ids));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 15 orders?' });
    expect(dialog.textContent).toContain('Sandbox (demo data)');
    expect(dialog.textContent).toContain('15 orders');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel 15 orders' }));
    const panel = await screen.findByRole('region', { name: 'Bulk cancel — Sandbox (demo data)' });
    await within(panel).findByText('Finished.', {}, { timeout: 15_000 });
    expect(within(panel).getByText('15 of 15 done')).toBeTruthy();
    // Over: the outcomes there were, each showing its orders in the list when pressed.
    expect(countsOf(panel)).toEqual({ Cancelled: '12', 'Already shipped': '3' });
    expect(ids.slice(0, 12).every((id) => app.sandbox.orderStatus(id) === 'cancelled')).toBe(true);
    disconnect();
  });

  it('the start answer coming after the job’s events (they travel apart): the panel keeps the last word, the dialog and ticks went with the first', async () => {
    const app = await startTestApp();
    // As in the development harness, where answers and events come over separate connections:
    // the answer to start, a snapshot of the job as it began, lands after the job has finished.
    const finishedSeen = new Promise<void>((resolve) =>
      app.api.events.onBulkCancelChanged(({ snapshot }) => {
        if (snapshot.status === 'finished') setTimeout(resolve, 0);
      }),
    );
    const api = {
      ...app.api,
      bulkCancel: {
        ...app.api.bulkCancel,
        start: async (...args: Parameters<typeof app.api.bulkCancel.start>) => {
          const answer = await app.api.bulkCancel.start(...args);
          await finishedSeen;
          // The events said the job began: the dialog went, and the ticked orders are the job's.
          beforeAnswer = { flow: store.getState().bulkFlow.step, ticks: store.getState().ticks };
          return answer;
        },
      },
    };
    let beforeAnswer: { flow: string; ticks: unknown } | undefined;
    const store = createAppStore(api, app.orderStreams);
    const disconnect = connectEvents(api, store);
    render(
      <StoreProvider store={store}>
        <BulkCancelDialog />
        <BulkCancelPanel environment="sandbox" />
      </StoreProvider>,
    );
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 4);
    const table = tableOf(ids.map((id) => ({ id })));
    await act(async () => {
      store.getState().setTicks(table, RowSelection.empty(table.count).toggle(0));
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = screen.getByRole('region', { name: /^Bulk cancel/ });
    expect(within(panel).getByText('Finished.')).toBeTruthy();
    expect(within(panel).getByText('4 of 4 done')).toBeTruthy();
    expect(beforeAnswer).toEqual({ flow: 'idle', ticks: undefined });
    expect(screen.queryByRole('dialog')).toBeNull();
    disconnect();
  });

  it('keeping the orders sends nothing', async () => {
    const { app, store, user } = await setup();
    act(() => store.getState().askBulkCancel('sandbox', app.sandbox.orderIds().slice(0, 5)));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 5 orders?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep the orders' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.sandbox.requestLog.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('pauses and resumes, saying why', async () => {
    const { app, store, user } = await setup();
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 200);
    // Slow answers, so the job is still running when the clerk pauses it.
    app.sandbox.setFaults('latency=40@1');
    await act(async () => {
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = await screen.findByRole('region', { name: /Bulk cancel/ });
    await user.click(within(panel).getByRole('button', { name: 'Pause' }));
    await within(panel).findByText('Paused. Nothing is sent until you resume.');
    app.sandbox.setFaults(undefined);
    await user.click(within(panel).getByRole('button', { name: 'Resume' }));
    await within(panel).findByText('Finished.', {}, { timeout: 20_000 });
    expect(within(panel).getByText('200 of 200 done')).toBeTruthy();
  });

  it('after Pause or Stop, says the answers still on their way until they have landed, and only then Paused or Stopped', async () => {
    // The service answers each DELETE only when the test lets it.
    const held: (() => void)[] = [];
    const { app, store, user } = await setup(undefined, {
      faults: 'latency=1@1',
      sleep: () => new Promise<void>((resolve) => held.push(resolve)),
    });
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 8);
    await act(async () => {
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = await screen.findByRole('region', { name: /Bulk cancel/ });
    const status = () => panel.querySelector('.bulk-status')!.textContent;
    // The first answer shows the quota; then both DELETEs of the queue are at the service.
    await waitFor(() => expect(held).toHaveLength(1));
    held.shift()!();
    await waitFor(() => expect(held).toHaveLength(2));

    await user.click(within(panel).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(status()).toBe('Pausing: 2 answers still on their way.'));
    act(() => held.shift()!());
    await waitFor(() => expect(status()).toBe('Pausing: 1 answer still on its way.'));
    expect(countsOf(panel)).toMatchObject({ Cancelled: '2', Waiting: '6' });
    act(() => held.shift()!());
    await waitFor(() => expect(status()).toBe('Paused. Nothing is sent until you resume.'));
    expect(countsOf(panel)).toMatchObject({ Cancelled: '3', Waiting: '5' });

    await user.click(within(panel).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(held).toHaveLength(2));
    await user.click(within(panel).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(status()).toBe('Stopping: 2 answers still on their way.'));
    // The two on their way were sent: only the other three were not.
    expect(countsOf(panel)).toEqual({ Cancelled: '3', 'On their way': '2', 'Not sent': '3' });
    act(() => held.splice(0).forEach((answer) => answer()));
    await waitFor(() =>
      expect(status()).toBe('Stopped. Orders not sent yet were left as they are.'),
    );
    expect(countsOf(panel)).toEqual({ Cancelled: '5', 'Not sent': '3' });
    expect(held).toHaveLength(0);
  });

  it('paused because the service cannot be reached: no Resume (it carries on by itself), Stop still there', async () => {
    const { app, store } = await setup();
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 200);
    app.sandbox.setFaults('latency=40@1');
    await act(async () => {
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = await screen.findByRole('region', { name: /Bulk cancel/ });
    // The service goes away: the next DELETE's connection is refused.
    await app.sandbox.close();
    await within(panel).findByText(
      'Paused while the service cannot be reached; it tries again by itself.',
      {},
      { timeout: 10_000 },
    );
    const buttons = within(panel)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).not.toContain('Resume');
    expect(buttons).not.toContain('Pause');
    expect(buttons).toContain('Stop');
  });

  it('a disk that fills during the job pauses it in plain words; it finishes once resumed with space again', async () => {
    const { app, store, user } = await setup();
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 200);
    app.sandbox.setFaults('latency=40@1');
    await act(async () => {
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = await screen.findByRole('region', { name: /Bulk cancel/ });
    app.disk.fail('ENOSPC');
    await within(panel).findByText(
      'Paused: nothing is sent while Store Admin cannot save its record of the cancels. Resume once it can save again.',
    );
    app.disk.fail(undefined);
    app.sandbox.setFaults(undefined);
    await user.click(within(panel).getByRole('button', { name: 'Resume' }));
    await within(panel).findByText('Finished.', {}, { timeout: 20_000 });
    expect(within(panel).getByText('200 of 200 done')).toBeTruthy();
  });

  it('after Stop the figures say what was not sent; Close puts the panel away for good, also after a restart', async () => {
    const dataDir = await makeDataDir();
    const { app, store, user, disconnect } = await setup(dataDir);
    const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 200);
    app.sandbox.setFaults('latency=40@1');
    await act(async () => {
      store.getState().askBulkCancel('sandbox', ids);
      await store.getState().confirmBulkCancel();
    });
    const panel = await screen.findByRole('region', { name: /Bulk cancel/ });
    // Running, it cannot be put away.
    expect(within(panel).queryByRole('button', { name: 'Close bulk cancel' })).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Stop' }));
    await within(panel).findByText('Stopped. Orders not sent yet were left as they are.');
    const counts = () =>
      Object.fromEntries(
        Object.entries(countsOf(panel)).map(([label, count]) => [
          label,
          Number(count.replace(/,/g, '')),
        ]),
      );
    // Nothing waits after a stop: what is left was not sent, or was sent and its answer is not
    // known (a DELETE the stop cut off on its way); outcomes none came to are not listed.
    expect(
      Object.keys(counts()).filter((label) => !['Cancelled', 'May be cancelled'].includes(label)),
    ).toEqual(['Not sent']);
    const {
      Cancelled: cancelled = 0,
      'May be cancelled': unsure = 0,
      'Not sent': notSent,
    } = counts();
    expect(cancelled + unsure + notSent!).toBe(200);
    expect(notSent).toBeGreaterThan(100);

    await user.click(within(panel).getByRole('button', { name: 'Close bulk cancel' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Bulk cancel/ })).toBeNull());
    disconnect();
    cleanup();
    await app.close(); // quit: answers on their way are recorded first

    // After a restart the stopped job stays put away; its results are in the cancel log.
    const again = await setup(dataDir);
    await act(() => again.store.getState().loadBulkCancel('sandbox'));
    const job = again.store.getState().bulkJobs.sandbox!;
    expect(job).toMatchObject({ status: 'stopped', dismissed: true });
    expect(screen.queryByRole('region', { name: /Bulk cancel/ })).toBeNull();
    const log = await again.app.api.cancelLog.list('sandbox');
    expect(log.ok && log.value.filter((entry) => entry.result === 'cancelled')).toHaveLength(
      job.counts.cancelled,
    );
    expect(job.counts.cancelled).toBeGreaterThanOrEqual(cancelled);
    again.disconnect();
  });

  it('shows no job for an address that has none, after the environment pointed elsewhere', async () => {
    const app = await startTestApp({ confirmKeyForOrigin: async () => true });
    const other = await startExtraSandbox({ seed: 3 });
    await app.api.environments.setBaseUrl('staging', app.sandbox.baseUrl);
    await app.api.keys.set('staging', 'demo-pro');
    const store = createAppStore(app.api, app.orderStreams);
    const disconnect = connectEvents(app.api, store);
    render(
      <StoreProvider store={store}>
        <BulkCancelPanel environment="staging" />
      </StoreProvider>,
    );
    await app.api.bulkCancel.start(
      'staging',
      app.sandbox.orderIds({ status: 'pending' }).slice(0, 2),
    );
    await act(() => store.getState().loadBulkCancel('staging'));
    expect(await screen.findByRole('region', { name: /^Bulk cancel — Staging/ })).toBeTruthy();

    await app.api.environments.setBaseUrl('staging', other.baseUrl);
    await act(() => store.getState().loadBulkCancel('staging'));
    expect(screen.queryByRole('region', { name: /^Bulk cancel/ })).toBeNull();
    disconnect();
  });

  it('words durations and writes results as CSV', () => {
    expect(durationWords(30_000)).toBe('under a minute');
    expect(durationWords(7 * 60_000)).toBe('about 7 min');
    expect(durationWords(130 * 60_000)).toBe('about 2 h 10 min');
    const csv = bulkResultsCsv([
      {
        orderId: '9007199254740993',
        outcome: 'cancelled',
        message: 'Order 9007199254740993 was cancelled.',
        at: Date.UTC(2026, 0, 1),
      },
      {
        orderId: '2',
        outcome: 'failed',
        message: 'Could not reach it, "refused"',
        at: Date.UTC(2026, 0, 1),
        delivery: 'not-sent',
      },
      {
        orderId: '3',
        outcome: 'failed',
        message: '=HYPERLINK(1)',
        at: Date.UTC(2026, 0, 1),
        delivery: 'answered',
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Order ID,Result,Time (UTC),Reached the service,Message',
      '"=""9007199254740993""",Cancelled,2026-01-01T00:00:00.000Z,,Order 9007199254740993 was cancelled.',
      '"=""2""",Failed,2026-01-01T00:00:00.000Z,not-sent,"Could not reach it, ""refused"""',
      // The same escaper as every other export: the service's words cannot start a formula.
      '"=""3""",Failed,2026-01-01T00:00:00.000Z,answered,\'=HYPERLINK(1)',
      '',
    ]);
  });
});
