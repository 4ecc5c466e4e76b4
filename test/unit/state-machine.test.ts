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
  moveStatus,
  type Machine,
  type StatusTable,
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

describe('moveStatus, the one guarded status change', () => {
  /** A table whose updateMany answers `count` and keeps what it was asked. */
  function table(count: number) {
    const calls: unknown[] = [];
    const t: StatusTable<string, object> = {
      updateMany: (args) => {
        calls.push(args);
        return Promise.resolve({ count });
      },
    };
    return { t, calls };
  }

  it('writes the new status and the data only where the row still has the status read', async () => {
    const { t, calls } = table(1);
    const paidAt = new Date('2026-01-02T03:04:05Z');
    await moveStatus(PAYOUT, t, { id: 7, status: 'FAILED' }, 'PAID', { paidAt });
    expect(calls).toEqual([{ where: { id: 7, status: 'FAILED' }, data: { paidAt, status: 'PAID' } }]);
  });

  it('refuses a transition the machine does not list before writing anything', async () => {
    const { t, calls } = table(1);
    const err = await moveStatus(WITHDRAWAL_REQUEST, t, { id: 1, status: 'COMPLETED' }, 'APPROVED', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toHaveProperty('message', 'This withdrawal request is completed and cannot be approved.');
    expect(calls).toEqual([]);
  });

  it('is a conflict when a concurrent transition moved the row first (no row matched)', async () => {
    const { t, calls } = table(0);
    const err = await moveStatus(INVESTMENT_REQUEST, t, { id: 3, status: 'PENDING' }, 'CANCELLED', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toHaveProperty('message', 'This investment request was changed by someone else; reload and try again.');
    expect(calls).toHaveLength(1);
  });

  it('lets the data not override the status it writes', async () => {
    const { t, calls } = table(1);
    await moveStatus(DISTRIBUTION, t, { id: 2, status: 'PENDING' }, 'APPROVED', { status: 'CANCELLED' });
    expect(calls).toEqual([{ where: { id: 2, status: 'PENDING' }, data: { status: 'APPROVED' } }]);
  });
});
