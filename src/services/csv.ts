import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/**
 * The one CSV writer of every export (statements, the audit trail): csv-stringify (RFC 4180
 * quoting), CRLF records, UTF-8 with a BOM so spreadsheets detect the encoding, streamed with
 * backpressure. Cells that are text are neutralised against formula injection; numbers are not.
 */

/** A cell written as it is: a decimal string (money, percentages), so that a negative amount stays a number. */
export class NumericCell {
  constructor(readonly text: string) {}
}

export type CsvCell = string | number | bigint | NumericCell | null | undefined;

/**
 * OWASP's CSV injection rule: a spreadsheet runs a cell that starts with = + - @, tab or carriage
 * return (a line feed too, for some), so such text gets a leading apostrophe and is shown as text.
 */
export const neutralise = (text: string) => (/^[=+\-@\t\r\n]/.test(text) ? `'${text}` : text);

const cell = (value: CsvCell): string =>
  value === null || value === undefined ? '' : value instanceof NumericCell ? value.text : typeof value === 'string' ? neutralise(value) : String(value);

/** Streams `records` (the header row first, if any) as CSV; the reader's error aborts the stream. */
export function csvStream(records: AsyncIterable<CsvCell[]> | Iterable<CsvCell[]>): Readable {
  // A lone CR or LF ends a record for some readers: quote those fields too, not only CRLF.
  const out = stringify({ bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
  async function* text() {
    for await (const record of records) yield record.map(cell);
  }
  // pipeline destroys `out` with the reader's error, which aborts the download.
  pipeline(Readable.from(text()), out, () => undefined);
  return out;
}
