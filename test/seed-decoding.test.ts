/**
 * The shipped mobile app's view of the two lists the original service description specifies in
 * detail: every page of GET /distributions and GET /withdrawals/requests, walked by following
 * `links.next` (or `meta.last_page`) as the app does, for an admin and for an investor, each item
 * decoded with the description's field types (test/support/seed-decoders.ts).
 */
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';
import { decodeDistribution, decodePage, decodeWithdrawalRequest } from './support/seed-decoders';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t.close());

const HOST = 'api.test';

/** Every page of a list, by its own links: the first page's URL, then `links.next` (or page + 1 up to `meta.last_page`). */
async function walk(path: string, token: string, withLinks: boolean, decode: (item: unknown, where: string) => unknown): Promise<number> {
  let url: string | null = `${path}?per_page=100`;
  let page = 1;
  let decoded = 0;
  let total = 0;
  while (url) {
    const res = await t.http.get(url).set('authorization', `Bearer ${token}`).set('host', HOST);
    expect(res.status).toBe(200);
    const { data, meta, links } = decodePage(res.body, withLinks, `${path} page ${page}`);
    data.forEach((item, i) => decode(item, `${path} page ${page} item ${i}`));
    decoded += data.length;
    total = meta.total as number;
    const next: string | null = links
      ? (links.next as string | null)
      : (meta.current_page as number) < (meta.last_page as number)
        ? `${path}?per_page=100&page=${page + 1}`
        : null;
    url = next && next.replace(`http://${HOST}`, '');
    page++;
  }
  expect(decoded).toBe(total);
  return decoded;
}

describe.each([
  ['the demo admin', DEMO_EMAILS.admin],
  ['the demo investor', DEMO_EMAILS.investor],
])('as %s', (_who, email) => {
  it('every distribution on every page decodes with the seed’s types (`distributed_at` never null)', async () => {
    const n = await walk('/api/v1/distributions', await t.token(email), true, decodeDistribution);
    expect(n).toBeGreaterThan(0);
  });

  it('every withdrawal request on every page decodes with the seed’s types', async () => {
    const n = await walk('/api/v1/withdrawals/requests', await t.token(email), false, decodeWithdrawalRequest);
    expect(n).toBeGreaterThan(0);
  });
});

describe('the decoders are as strict as the app', () => {
  const item = {
    id: 1,
    unit_id: 2,
    unit_name: 'Harbour Lofts',
    period: '2026-Q1',
    type: 'monthly',
    gross_amount: 100.5,
    net_amount: 90.45,
    fees: 10.05,
    status: 'pending',
    distributed_at: '2026-04-30T00:00:00+00:00',
    created_at: '2026-04-03T08:00:00+00:00',
  };
  it.each([
    ['distributed_at null', { ...item, distributed_at: null }],
    ['an id as a string', { ...item, id: '1' }],
    ['money as a string', { ...item, gross_amount: '100.50' }],
    ['a timestamp with a fraction', { ...item, created_at: '2026-04-03T08:00:00.000Z' }],
    ['an extra field', { ...item, extra: 1 }],
  ])('refuse %s', (_label, bad) => {
    expect(() => decodeDistribution(bad)).toThrow();
  });
  it('accept the seed’s sample shape', () => {
    expect(decodeDistribution(item)).toEqual(item);
  });
});
