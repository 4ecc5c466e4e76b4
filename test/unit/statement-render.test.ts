import { Decimal } from '../../src/services/money';
import { csvStream, type Cell, type Statement } from '../../src/services/statements/render';

const statement = (rows: Cell[][]): Statement => ({
  platform: 'P',
  title: 'T',
  investorName: 'N',
  account: 'Investor #1',
  period: 'p',
  generatedAt: new Date(),
  language: 'en',
  currency: 'USD',
  disclaimer: null,
  sections: [
    {
      title: 'S',
      totals: [{ label: 'Total' }],
      columns: [
        { header: 'Text', width: 100 },
        { header: 'Return %', width: 100, kind: 'number' },
        { header: 'Amount', width: 100, kind: 'money', total: 'sum' },
      ],
      rows: (async function* () {
        yield* rows;
      })(),
    },
  ],
});

async function csv(rows: Cell[][]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of csvStream(statement(rows))) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('statement CSV', () => {
  it('neutralises text cells a spreadsheet would run, and leaves numbers (negative ones too) numbers', async () => {
    const text = await csv([
      ['=1+2', '-3.20', new Decimal('-12.50')],
      ['+cmd', '4.00', new Decimal('1000.00')],
      ['-minus', '0.00', new Decimal('0.01')],
      ['@SUM(A1)', '0.00', new Decimal('0')],
      ['\tTAB', '0.00', new Decimal('0')],
      ['\rCR', '0.00', new Decimal('0')],
      ['plain, "quoted"', '0.00', new Decimal('0')],
    ]);
    expect(text.startsWith('\ufeffText,Return %,Amount\r\n')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Text,Return %,Amount',
      "'=1+2,-3.20,-12.50",
      "'+cmd,4.00,1000.00",
      "'-minus,0.00,0.01",
      "'@SUM(A1),0.00,0.00",
      "'\tTAB,0.00,0.00",
      '"\'\rCR",0.00,0.00',
      '"plain, ""quoted""",0.00,0.00',
      'Total,,987.51',
      '',
    ]);
  });
});
