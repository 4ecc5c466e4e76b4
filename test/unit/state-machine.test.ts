import { ConflictError } from '../../src/domain/errors';
import {
  DISTRIBUTION,
  INVESTMENT_REQUEST,
  KYC_DOCUMENT,
  MEMBERSHIP,
  PAYOUT,
  UNIT,
  WITHDRAWAL_REQUEST,
  assertTransition,
  assertUpdated,
  type Machine,
} from '../../src/services/state-machine';

const machines: Machine<string>[] = [INVESTMENT_REQUEST, WITHDRAWAL_REQUEST, DISTRIBUTION, KYC_DOCUMENT, PAYOUT, UNIT, MEMBERSHIP];

describe('state machines', () => {
  it.each(machines.map((m) => [m.name, m] as const))('%s: every listed transition passes, every other one is a conflict', (_name, machine) => {
    const states = Object.keys(machine.next);
    for (const from of states) {
      for (const to of states) {
        const allowed = machine.next[from].includes(to);
        if (allowed) expect(() => assertTransition(machine, from, to)).not.toThrow();
        else expect(() => assertTransition(machine, from, to)).toThrow(ConflictError);
      }
    }
  });

  it.each(machines.map((m) => [m.name, m] as const))('%s: only states of the machine are reached', (_name, machine) => {
    const states = new Set(Object.keys(machine.next));
    for (const targets of Object.values(machine.next)) for (const to of targets) expect(states.has(to)).toBe(true);
  });

  it('says what the object is and why the transition is refused', () => {
    expect(() => assertTransition(DISTRIBUTION, 'DISTRIBUTED', 'CANCELLED')).toThrow('This distribution is distributed and cannot be cancelled.');
  });

  it('treats a guarded write that changed no row as a concurrent change', () => {
    expect(() => assertUpdated(PAYOUT, { count: 1 })).not.toThrow();
    expect(() => assertUpdated(PAYOUT, { count: 0 })).toThrow('This payout was changed by someone else; reload and try again.');
  });
});
