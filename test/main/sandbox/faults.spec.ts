import { describe, expect, it } from 'vitest';
import {
  FaultInjector,
  FaultSpecError,
  formatFaultSpec,
  parseFaultSpec,
} from '../../../src/main/sandbox/faults.ts';

describe('parseFaultSpec', () => {
  it('reads every kind with its parameter and rate', () => {
    expect(parseFaultSpec('latency=200@0.3,5xx@0.1,reset@0.05,malformed@0.02')).toEqual([
      { kind: 'latency', ms: 200, rate: 0.3 },
      { kind: '5xx', rate: 0.1 },
      { kind: 'reset', rate: 0.05 },
      { kind: 'malformed', rate: 0.02 },
    ]);
  });

  it('takes an omitted rate as 1, tolerates spaces, and reads "" as no faults', () => {
    expect(parseFaultSpec(' 5xx , latency=10 ')).toEqual([
      { kind: '5xx', rate: 1 },
      { kind: 'latency', ms: 10, rate: 1 },
    ]);
    expect(parseFaultSpec('')).toEqual([]);
    expect(parseFaultSpec('reset@0,malformed@1')).toEqual([
      { kind: 'reset', rate: 0 },
      { kind: 'malformed', rate: 1 },
    ]);
  });

  it.each([
    ['unknown kind', 'timeout@0.1', /unknown kind "timeout"/],
    ['rate above 1', '5xx@1.5', /above 1/],
    ['negative rate', '5xx@-0.1', /not a number from 0 to 1/],
    ['rate not a number', 'reset@often', /not a number from 0 to 1/],
    ['latency without a delay', 'latency@0.3', /needs a delay in whole milliseconds/],
    ['latency with a bad delay', 'latency=fast@0.3', /needs a delay in whole milliseconds/],
    ['parameter on 5xx', '5xx=500@0.1', /takes no parameter/],
    ['repeated kind', '5xx@0.1,5xx@0.2', /repeats a kind/],
    ['empty rule', '5xx@0.1,,reset@0.1', /must read kind\[=param\]@rate/],
    ['garbage', '@@@', /must read kind\[=param\]@rate/],
  ])('rejects %s with a message naming the rule', (_name, spec, reason) => {
    let thrown: unknown;
    try {
      parseFaultSpec(spec);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FaultSpecError);
    expect((thrown as Error).message).toContain(`Invalid fault spec "${spec}"`);
    expect((thrown as Error).message).toMatch(reason);
  });

  it('reads a burst of 429s with its length, and wants one', () => {
    expect(parseFaultSpec('429=5@0.01')).toEqual([{ kind: '429', burst: 5, rate: 0.01 }]);
    expect(formatFaultSpec(parseFaultSpec('429=5@0.01'))).toBe('429=5@0.01');
    expect(() => parseFaultSpec('429@0.1')).toThrow('length of a burst');
    expect(() => parseFaultSpec('429=0@0.1')).toThrow('length of a burst');
  });

  it('formats a spec back to the same rules', () => {
    const spec = 'latency=200@0.3,5xx@0.1,reset@0.05,malformed@0.02';
    expect(parseFaultSpec(formatFaultSpec(parseFaultSpec(spec)))).toEqual(parseFaultSpec(spec));
  });
});

describe('FaultInjector', () => {
  const rolls = (injector: FaultInjector, n: number) =>
    Array.from({ length: n }, () => injector.roll().kinds.join('+'));

  it('repeats the same rolls for the same seed and differs for another', () => {
    const spec = 'latency=5@0.5,5xx@0.5';
    const first = rolls(new FaultInjector(spec, 1), 200);
    expect(rolls(new FaultInjector(spec, 1), 200)).toEqual(first);
    expect(rolls(new FaultInjector(spec, 2), 200)).not.toEqual(first);
  });

  it('fires each kind at about its rate', () => {
    const injector = new FaultInjector('5xx@0.1,reset@0.5,latency=7@0.9', 3);
    const counts = { '5xx': 0, reset: 0, latency: 0 };
    for (let i = 0; i < 10_000; i++) {
      const roll = injector.roll();
      if (roll.serverError) counts['5xx']++;
      if (roll.reset) counts.reset++;
      if (roll.latencyMs === 7) counts.latency++;
    }
    expect(counts['5xx'] / 10_000).toBeCloseTo(0.1, 1);
    expect(counts.reset / 10_000).toBeCloseTo(0.5, 1);
    expect(counts.latency / 10_000).toBeCloseTo(0.9, 1);
  });

  it('never fires at rate 0, always at rate 1, and restarts the stream on set', () => {
    const injector = new FaultInjector('malformed@0,reset@1', 9);
    for (let i = 0; i < 100; i++) expect(injector.roll().kinds).toEqual(['reset']);
    injector.set('5xx@0.5');
    const after = rolls(injector, 50);
    injector.set('5xx@0.5');
    expect(rolls(injector, 50)).toEqual(after);
    injector.set(undefined);
    expect(injector.spec).toEqual([]);
    expect(injector.roll().kinds).toEqual([]);
  });

  it('rejects a bad spec given as data', () => {
    expect(() => new FaultInjector([{ kind: '5xx', rate: 2 }], 1)).toThrow(FaultSpecError);
  });
});
