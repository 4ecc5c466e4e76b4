import { NumericCell, csvStream, type CsvCell } from '../../src/services/csv';

async function csv(records: CsvCell[][]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of csvStream(records)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('the one CSV writer (src/services/csv.ts)', () => {
  it('applies the OWASP CSV-injection rule to text, never to numbers, and quotes CR, LF, commas and quotes', async () => {
    const text = await csv([
      ['=HYPERLINK("http://x","open")', '+1', '-1', '@A1', '\t=1', '\r=1', '\n=1', 'plain', ''],
      [null, undefined, 7, -7, 12n, new NumericCell('-12.50'), 'a,b', 'a"b', '=1,2'],
    ]);
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      `"'=HYPERLINK(""http://x"",""open"")",'+1,'-1,'@A1,'\t=1,"'\r=1","'\n=1",plain,`,
      `,,7,-7,12,-12.50,"a,b","a""b","'=1,2"`,
      '',
    ]);
  });
});
