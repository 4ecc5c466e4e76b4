import fc from 'fast-check';
import { CommandError, integerListOption, integerOption, parseCommandLine } from '../../scripts/command';

const USAGE = 'Usage: tool [--count N] [--reset]';
const OPTIONS = { count: { type: 'string' }, reset: { type: 'boolean', default: false } } as const;

describe('operator command lines (seed, bench, admin:create)', () => {
  it('reads long options, inline values and defaults', () => {
    expect(parseCommandLine(OPTIONS, USAGE, ['--count', '7'])).toEqual({ count: '7', reset: false });
    expect(parseCommandLine(OPTIONS, USAGE, ['--count=8', '--reset'])).toEqual({ count: '8', reset: true });
  });

  it.each([[['--unknown']], [['--count']], [['positional']]])('refuses %j with the usage, as a one-line CommandError', (args) => {
    expect(() => parseCommandLine(OPTIONS, USAGE, args)).toThrow(CommandError);
    expect(() => parseCommandLine(OPTIONS, USAGE, args)).toThrow(USAGE);
  });

  it('integer options: absent is undefined, integers at or above the minimum pass, anything else names the flag', () => {
    expect(integerOption('count', undefined)).toBeUndefined();
    expect(integerOption('count', '1000000', 1)).toBe(1_000_000);
    for (const bad of ['', ' ', 'abc', '1.5', '-1', '0x', 'Infinity']) {
      expect(() => integerOption('count', bad, 0)).toThrow('--count expects an integer >= 0');
    }
    expect(() => integerOption('count', '0', 1)).toThrow(`--count expects an integer >= 1, got "0"`);
    expect(integerListOption('sizes', '10000,100000', 1)).toEqual([10_000, 100_000]);
    expect(() => integerListOption('sizes', '10,,20', 1)).toThrow('--sizes expects an integer >= 1, got ""');
  });

  it('any text either parses to the integer it spells or is refused (never a NaN or a fraction)', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        let n: number | undefined;
        try {
          n = integerOption('n', raw);
        } catch (err) {
          expect(err).toBeInstanceOf(CommandError);
          return;
        }
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBe(Number(raw));
      }),
    );
  });
});
