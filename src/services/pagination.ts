import { ValidationError } from '../domain/errors';
import type { Prisma } from '../generated/prisma/client';

/**
 * The one pagination helper, for both faces: page arguments and pageInfo for GraphQL, and the
 * Laravel length-aware paginator body (meta + links) that the REST face derives from pageInfo.
 */
export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;

export interface PageWindow {
  page: number;
  perPage: number;
  skip: number;
  take: number;
}

export interface PageInfoShape {
  currentPage: number;
  perPage: number;
  total: number;
  lastPage: number;
  from: number | null;
  to: number | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Page<T> {
  items: T[];
  pageInfo: PageInfoShape;
}

/** A page that is not an integer ≥ 1 means page 1 (Laravel); a bad per-page is a 422. */
export function pageWindow(page?: number | null, perPage?: number | null): PageWindow {
  const p = Number.isInteger(page) && (page as number) >= 1 ? (page as number) : 1;
  const size = perPage ?? DEFAULT_PER_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PER_PAGE) {
    throw ValidationError.field('perPage', `The per page field must be between 1 and ${MAX_PER_PAGE}.`);
  }
  return { page: p, perPage: size, skip: (p - 1) * size, take: size };
}

/** REST query strings: anything but a plain positive integer is page 1. */
export function lenientPage(raw: unknown): number {
  const s = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : '';
  return /^[0-9]+$/.test(s) && Number(s) >= 1 && Number.isSafeInteger(Number(s)) ? Number(s) : 1;
}

export function toPage<T>(items: T[], total: number, w: PageWindow): Page<T> {
  const lastPage = Math.max(Math.ceil(total / w.perPage), 1);
  const from = items.length ? w.skip + 1 : null;
  const to = items.length ? w.skip + items.length : null;
  return {
    items,
    pageInfo: { currentPage: w.page, perPage: w.perPage, total, lastPage, from, to, hasNextPage: w.page < lastPage, hasPreviousPage: w.page > 1 },
  };
}

/** What one page of a list is read from: its rows in a window, and the whole list's size. */
export interface PageSource<Row> {
  rows(window: { skip: number; take: number }): PromiseLike<Row[]>;
  count(): PromiseLike<number>;
  /**
   * The window's rows with the whole list's size, in one statement, where a source can (the count
   * as a subquery of the page's): the total each row carries, read in the rows' snapshot.
   */
  countedRows?(window: { skip: number; take: number }): PromiseLike<{ rows: Row[]; total: number | undefined }>;
}

/**
 * One page of a list: the window's rows and the total — in one statement from `countedRows`, else
 * in parallel (two statements) — then `toItems` (e.g. a grouped query for the whole page) turns the
 * rows into the page's items. An empty window carries no total: page 1 of it is an empty list, any
 * later page asks `count`.
 */
export async function paginate<Row, Item = Row>(
  w: PageWindow,
  source: PageSource<Row>,
  toItems: (rows: Row[]) => Item[] | Promise<Item[]> = (rows) => rows as unknown as Item[],
): Promise<Page<Item>> {
  const window = { skip: w.skip, take: w.take };
  if (source.countedRows) {
    const { rows, total } = await source.countedRows(window);
    return toPage(await toItems(rows), total ?? (w.skip === 0 ? 0 : await source.count()), w);
  }
  const [rows, total] = await Promise.all([source.rows(window), source.count()]);
  return toPage(await toItems(rows), total, w);
}

type FindArgs = { where?: unknown; skip?: number; take?: number };
/** Any Prisma model delegate (`db.payout`, …); its own types check the arguments. */
type Delegate = { findMany(args: never): PromiseLike<unknown[]>; count(args: never): PromiseLike<number> };
type PageArgs<D> = Omit<Prisma.Args<D, 'findMany'>, 'skip' | 'take'>;

/**
 * A model's findMany (with the page's skip and take) and its count over the same `where`, as a
 * PageSource. The arguments are checked like the delegate's own (a misspelt field fails the type
 * check) and the rows are typed by the `select`, as findMany's are.
 */
export function pageQuery<D extends Delegate, A>(delegate: D, args: Prisma.Exact<A, PageArgs<D>>): PageSource<Prisma.Result<D, A, 'findMany'>[number]> {
  type Row = Prisma.Result<D, A, 'findMany'>[number];
  const find = args as FindArgs;
  const d = delegate as unknown as { findMany(args: FindArgs): PromiseLike<Row[]>; count(args: FindArgs): PromiseLike<number> };
  return { rows: (window) => d.findMany({ ...find, ...window }), count: () => d.count({ where: find.where }) };
}

export interface LaravelLink {
  url: string | null;
  label: string;
  active: boolean;
}

const ON_EACH_SIDE = 3;

/** Laravel's UrlWindow: every page below 14 pages, else first/slider/last blocks with "..." between. */
function pageElements(current: number, last: number): (number | '...')[] {
  const range = (a: number, b: number) => Array.from({ length: Math.max(b - a + 1, 0) }, (_, i) => a + i);
  if (last < ON_EACH_SIDE * 2 + 8) return range(1, last);
  const window = ON_EACH_SIDE + 4;
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), '...', last - 1, last];
  if (current > last - window) return [1, 2, '...', ...range(last - (window + (ON_EACH_SIDE - 1)), last)];
  return [1, 2, '...', ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), '...', last - 1, last];
}

/**
 * `path` is the absolute URL without query; `query` the request's other parameters, kept in every
 * page URL with `page` last.
 */
export function laravelPaginator(info: PageInfoShape, path: string, query: Record<string, string>) {
  const base = Object.entries(query)
    .filter(([k]) => k !== 'page')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const url = (page: number) => `${path}?${[...base, `page=${page}`].join('&')}`;
  const { currentPage: current, lastPage: last } = info;
  const prev = current > 1 ? url(current - 1) : null;
  const next = last > current ? url(current + 1) : null;
  const links: LaravelLink[] = [
    { url: prev, label: '&laquo; Previous', active: false },
    ...pageElements(current, last).map((e) =>
      e === '...' ? { url: null, label: '...', active: false } : { url: url(e), label: String(e), active: e === current },
    ),
    { url: next, label: 'Next &raquo;', active: false },
  ];
  return {
    links: { first: url(1), last: url(last), prev, next },
    meta: { current_page: current, from: info.from, last_page: last, links, path, per_page: info.perPage, to: info.to, total: info.total },
  };
}
