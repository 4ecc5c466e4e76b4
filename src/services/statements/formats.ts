import { present } from '../../platform/invariant';
import { kind, type Cell, type Column } from './render';

/** Display formats from the investor's language and currency; values arrive as exact decimal strings. */
export class Formats {
  private readonly locale: string;
  private readonly money: Intl.NumberFormat;
  private readonly numbers = new Map<number, Intl.NumberFormat>();

  private readonly dateTime: Intl.DateTimeFormat;

  constructor(language: string, currency: string, timeZone: string) {
    this.locale = Intl.NumberFormat.supportedLocalesOf(language)[0] ?? 'en';
    this.money = Formats.currency(this.locale, currency) ?? present(Formats.currency(this.locale, 'USD'), 'USD format');
    this.dateTime = Formats.dateTime(this.locale, timeZone) ?? present(Formats.dateTime(this.locale, 'UTC'), 'UTC format');
  }

  private static dateTime(locale: string, timeZone: string): Intl.DateTimeFormat | undefined {
    const options = { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' } as const;
    try {
      return new Intl.DateTimeFormat(locale, options);
    } catch {
      return undefined; // a zone this Node's ICU does not know
    }
  }

  /** A moment in the investor's time zone, e.g. "26.11.2026, 13:05 CET (Europe/Warsaw)". */
  moment(at: Date): string {
    return `${this.dateTime.format(at)} (${this.dateTime.resolvedOptions().timeZone})`;
  }

  private static currency(locale: string, currency: string): Intl.NumberFormat | undefined {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      return undefined; // not a currency code Intl knows
    }
  }

  /** Intl formats a decimal string exactly (no float on the way), whatever its size. */
  cell(c: Column, v: Cell): string {
    if (typeof v !== 'string') return this.money.format(v.toFixed(2) as Intl.StringNumericLiteral);
    if (kind(c) !== 'number' || v === '') return v;
    const digits = v.split('.')[1]?.length ?? 0;
    let f = this.numbers.get(digits);
    if (!f) this.numbers.set(digits, (f = new Intl.NumberFormat(this.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })));
    return f.format(v as Intl.StringNumericLiteral);
  }

  /** A row's cells as printed. */
  row(columns: Column[], cells: Cell[]): string[] {
    return cells.map((v, i) => this.cell(columns[i], v));
  }
}
