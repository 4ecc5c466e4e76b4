import fc from 'fast-check';
import { laravelTimestamp } from '../../src/rest/serialize';

/** The definition the REST face has always written: toISOString without the fraction, with a UTC offset. */
const viaIsoString = (value: Date | string | number) => new Date(value).toISOString().slice(0, 19) + '+00:00';

/** Both sides' answer, or the error either throws (an invalid date). */
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (err) {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
};

/** Four-digit years, the ones written field by field, and any date at all (invalid ones too). */
const dates = fc.oneof(fc.date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z') }), fc.date({ noInvalidDate: false }));

describe('REST timestamps', () => {
  it('writes every Date as toISOString does, without the fraction and with +00:00', () => {
    fc.assert(
      fc.property(dates, (date) => {
        expect(outcome(() => laravelTimestamp(date))).toBe(outcome(() => viaIsoString(date)));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads an ISO string or a time value as a Date would', () => {
    const valid = dates.filter((d) => !Number.isNaN(d.getTime()));
    fc.assert(
      fc.property(
        fc.oneof(
          valid.map((d) => d.getTime()),
          valid.map((d) => d.toISOString()),
        ),
        (value) => {
          expect(laravelTimestamp(value)).toBe(viaIsoString(value));
        },
      ),
    );
  });

  it('drops the fraction without rounding and pads every field', () => {
    expect(laravelTimestamp(new Date('2026-03-31T00:00:00.000Z'))).toBe('2026-03-31T00:00:00+00:00');
    expect(laravelTimestamp(new Date('1000-01-02T03:04:05.999Z'))).toBe('1000-01-02T03:04:05+00:00');
    expect(laravelTimestamp(new Date('0999-12-31T23:59:59.999Z'))).toBe('0999-12-31T23:59:59+00:00');
  });
});
