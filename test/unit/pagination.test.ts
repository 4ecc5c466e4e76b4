import { laravelPaginator, lenientPage, pageQuery, pageWindow, paginate, toPage } from '../../src/services/pagination';
import { ValidationError } from '../../src/domain/errors';
import type { PrismaClient } from '../../src/generated/prisma/client';

const PATH = 'http://api.test/api/v1/distributions';

function infoFor(page: number, total: number, perPage = 15) {
  const w = pageWindow(page, perPage);
  const onPage = Math.max(Math.min(total - w.skip, perPage), 0);
  return toPage(
    Array.from({ length: onPage }, (_, i) => i),
    total,
    w,
  ).pageInfo;
}

const labels = (page: number, lastPage: number) =>
  laravelPaginator(infoFor(page, lastPage * 15), PATH, {})
    .meta.links.map((l) => l.label)
    .slice(1, -1);

describe('page arguments', () => {
  it.each(['0', '-1', 'abc', '1.5', '', undefined, '1e2'])('treats page %p as page 1', (raw) => {
    expect(lenientPage(raw)).toBe(1);
  });

  it('keeps a plain positive page number', () => {
    expect(lenientPage('7')).toBe(7);
  });

  it.each([0, 101, -3])('rejects per page %p with a field error', (perPage) => {
    expect(() => pageWindow(1, perPage)).toThrow(ValidationError);
    try {
      pageWindow(1, perPage);
    } catch (e) {
      expect((e as ValidationError).fields).toHaveProperty('perPage');
    }
  });
});

describe('length-aware page info', () => {
  it('numbers the first and last item of a page from 1', () => {
    expect(infoFor(2, 40)).toMatchObject({ currentPage: 2, from: 16, to: 30, lastPage: 3, total: 40 });
  });

  it('answers a page past the end with from/to null and the real last page', () => {
    expect(infoFor(9, 40)).toMatchObject({ currentPage: 9, from: null, to: null, lastPage: 3 });
  });

  it('has one page when there is nothing', () => {
    expect(infoFor(1, 0)).toMatchObject({ lastPage: 1, from: null, to: null, total: 0 });
  });
});

describe('Laravel paginator body', () => {
  it('orders meta keys as the contract says', () => {
    const { meta } = laravelPaginator(infoFor(1, 40), PATH, {});
    expect(Object.keys(meta)).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
  });

  it('keeps other query parameters and puts page last', () => {
    const { links } = laravelPaginator(infoFor(2, 40), PATH, { page: '2', status: 'distributed', per_page: '15' });
    expect(links).toEqual({
      first: `${PATH}?status=distributed&per_page=15&page=1`,
      last: `${PATH}?status=distributed&per_page=15&page=3`,
      prev: `${PATH}?status=distributed&per_page=15&page=1`,
      next: `${PATH}?status=distributed&per_page=15&page=3`,
    });
  });

  it('has no previous URL on page 1 and no next URL on the last page', () => {
    const { meta } = laravelPaginator(infoFor(1, 10), PATH, {});
    expect(meta.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect(meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
    expect(meta.links[1]).toEqual({ url: `${PATH}?page=1`, label: '1', active: true });
  });

  it('lists every page below 14 pages', () => {
    expect(labels(5, 13)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13']);
  });

  it('uses the window near the start from 14 pages', () => {
    expect(labels(3, 14)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '...', '13', '14']);
  });

  it('uses the window near the end', () => {
    expect(labels(18, 20)).toEqual(['1', '2', '...', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
  });

  it('uses the sliding window in the middle, "..." links without URL', () => {
    expect(labels(10, 20)).toEqual(['1', '2', '...', '7', '8', '9', '10', '11', '12', '13', '...', '19', '20']);
    const dots = laravelPaginator(infoFor(10, 300), PATH, {}).meta.links.filter((l) => l.label === '...');
    expect(dots).toEqual([
      { url: null, label: '...', active: false },
      { url: null, label: '...', active: false },
    ]);
  });

  it('switches between beginning and sliding windows exactly where Laravel does', () => {
    expect(labels(7, 30)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '...', '29', '30']);
    expect(labels(8, 30)).toEqual(['1', '2', '...', '5', '6', '7', '8', '9', '10', '11', '...', '29', '30']);
    expect(labels(23, 30)).toEqual(['1', '2', '...', '20', '21', '22', '23', '24', '25', '26', '...', '29', '30']);
    expect(labels(24, 30)).toEqual(['1', '2', '...', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30']);
  });
});

/** A promise settled from outside, to see what paginate starts before anything answers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('paginate', () => {
  it('asks for the rows of the window and the total at once, then answers the page', async () => {
    const rows = deferred<string[]>();
    const total = deferred<number>();
    const windows: { skip: number; take: number }[] = [];
    let counted = 0;
    const page = paginate(pageWindow(2, 3), {
      rows: (window) => (windows.push(window), rows.promise),
      count: () => (counted++, total.promise),
    });
    // Both reads are under way before either has answered: one round trip, not two.
    expect(windows).toEqual([{ skip: 3, take: 3 }]);
    expect(counted).toBe(1);
    rows.resolve(['d', 'e', 'f']);
    total.resolve(8);
    await expect(page).resolves.toEqual({
      items: ['d', 'e', 'f'],
      pageInfo: { currentPage: 2, perPage: 3, total: 8, lastPage: 3, from: 4, to: 6, hasNextPage: true, hasPreviousPage: true },
    });
  });

  it('turns the rows into items once both reads are done, keeping the page info of the rows', async () => {
    const seen: number[][] = [];
    const page = await paginate(
      pageWindow(1, 15),
      { rows: async () => [1, 2], count: async () => 2 },
      async (rows) => (seen.push(rows), rows.map((n) => `#${n}`)),
    );
    expect(seen).toEqual([[1, 2]]);
    expect(page).toEqual({ items: ['#1', '#2'], pageInfo: expect.objectContaining({ total: 2, from: 1, to: 2, lastPage: 1 }) });
  });

  it('answers a page past the end empty, with the real total', async () => {
    const page = await paginate(pageWindow(5, 10), { rows: async () => [], count: async () => 12 });
    expect(page).toEqual({ items: [], pageInfo: expect.objectContaining({ currentPage: 5, total: 12, lastPage: 2, from: null, to: null }) });
  });

  it('fails when either read fails', async () => {
    const failing = new Error('count failed');
    await expect(paginate(pageWindow(1, 15), { rows: async () => [1], count: () => Promise.reject(failing) })).rejects.toBe(failing);
  });
});

describe('pageQuery', () => {
  it("gives findMany the arguments with the window's skip and take, and count the same where", async () => {
    const calls: { findMany: unknown[]; count: unknown[] } = { findMany: [], count: [] };
    const delegate = {
      findMany: async (args: unknown) => (calls.findMany.push(args), [{ id: 7 }]),
      count: async (args: unknown) => (calls.count.push(args), 31),
    } as unknown as PrismaClient['payout'];
    const args = { where: { investorId: 4 }, select: { id: true }, orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }] };
    const page = await paginate(pageWindow(3, 10), pageQuery(delegate, args));
    expect(calls).toEqual({ findMany: [{ ...args, skip: 20, take: 10 }], count: [{ where: { investorId: 4 } }] });
    expect(page.items).toEqual([{ id: 7 }]);
    expect(page.pageInfo).toMatchObject({ currentPage: 3, total: 31, from: 21, to: 21, lastPage: 4 });
  });
});

describe('paginate with a source that counts in the page’s statement', () => {
  /** A list of `size` rows whose countedRows answers the window with the total on each row, recording what was asked. */
  function counted(size: number) {
    const asked: string[] = [];
    const rows = (skip: number, take: number) => Array.from({ length: Math.max(Math.min(size - skip, take), 0) }, (_, i) => skip + i);
    return {
      asked,
      source: {
        rows: async ({ skip, take }: { skip: number; take: number }) => (asked.push('rows'), rows(skip, take)),
        count: async () => (asked.push('count'), size),
        countedRows: async ({ skip, take }: { skip: number; take: number }) => {
          asked.push('countedRows');
          const found = rows(skip, take);
          return { rows: found, total: found.length ? size : undefined };
        },
      },
    };
  }

  it('takes rows and total from the one statement, and asks count only for an empty window past page 1', async () => {
    for (const [size, page, expected] of [
      [31, 3, ['countedRows']],
      [31, 1, ['countedRows']],
      [0, 1, ['countedRows']],
      [31, 9, ['countedRows', 'count']],
    ] as const) {
      const { asked, source } = counted(size);
      const result = await paginate(pageWindow(page, 10), source);
      expect(asked).toEqual(expected);
      // The same page as two statements would give.
      expect(result).toEqual(await paginate(pageWindow(page, 10), { rows: source.rows, count: source.count }));
      expect(result.pageInfo.total).toBe(size);
    }
  });
});
