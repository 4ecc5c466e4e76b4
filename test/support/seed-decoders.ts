/**
 * Decoders with the types the original service description gives (../shared/seed, "Resources and
 * their fields"), as the shipped app's strictly typed models (Swift Codable, a Kotlin data class)
 * read them: a field that is missing, of another JSON type, or null where the table says neither
 * "or null" nor optional fails the whole item, so the whole page. Each decoder returns its input
 * typed, or throws naming the field.
 */

type Json = Record<string, unknown>;

/** ISO 8601 with a UTC offset and no fraction (contract §1). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

class DecodeError extends Error {}

function object(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DecodeError(`${where}: an object expected, got ${JSON.stringify(value)}`);
  return value as Json;
}

function exactKeys(value: Json, keys: readonly string[], where: string): void {
  if (JSON.stringify(Object.keys(value)) !== JSON.stringify(keys))
    throw new DecodeError(`${where}: keys ${Object.keys(value).join(',')}, expected ${keys.join(',')}`);
}

const check = (ok: boolean, where: string, field: string, value: unknown, what: string) => {
  if (!ok) throw new DecodeError(`${where}.${field}: ${what} expected, got ${JSON.stringify(value)}`);
};
const integer = (o: Json, f: string, w: string) => check(Number.isInteger(o[f]), w, f, o[f], 'an integer');
const number = (o: Json, f: string, w: string) => check(typeof o[f] === 'number' && Number.isFinite(o[f]), w, f, o[f], 'a number');
const string = (o: Json, f: string, w: string) => check(typeof o[f] === 'string', w, f, o[f], 'a string');
const stringOrNull = (o: Json, f: string, w: string) => check(typeof o[f] === 'string' || o[f] === null, w, f, o[f], 'a string or null');
const timestamp = (o: Json, f: string, w: string) => check(typeof o[f] === 'string' && TIMESTAMP.test(o[f]), w, f, o[f], 'an ISO 8601 timestamp with offset');
const boolean = (o: Json, f: string, w: string) => check(typeof o[f] === 'boolean', w, f, o[f], 'a boolean');

/** The seed's Distribution fields, in its table's order (the REST face answers them so). */
export const DISTRIBUTION_KEYS: string[] = [
  'id',
  'unit_id',
  'unit_name',
  'period',
  'type',
  'gross_amount',
  'net_amount',
  'fees',
  'status',
  'distributed_at',
  'created_at',
];

export interface SeedDistribution {
  id: number;
  unit_id: number;
  unit_name: string;
  period: string;
  type: string;
  gross_amount: number;
  net_amount: number;
  fees: number;
  status: string;
  distributed_at: string;
  created_at: string;
}

/** The seed's Distribution: every field required, `distributed_at` a timestamp (no "or null"). */
export function decodeDistribution(value: unknown, where = 'distribution'): SeedDistribution {
  const o = object(value, where);
  exactKeys(o, DISTRIBUTION_KEYS, where);
  for (const f of ['id', 'unit_id']) integer(o, f, where);
  for (const f of ['unit_name', 'period', 'type', 'status']) string(o, f, where);
  for (const f of ['gross_amount', 'net_amount', 'fees']) number(o, f, where);
  for (const f of ['distributed_at', 'created_at']) timestamp(o, f, where);
  return o as unknown as SeedDistribution;
}

/** The seed's WithdrawalRequest list item fields, in its table's order. */
export const WITHDRAWAL_KEYS: string[] = [
  'id',
  'unit_id',
  'investor_id',
  'ownership_percentage',
  'invested_amount',
  'reason',
  'status',
  'rejection_reason',
  'created_at',
  'updated_at',
  'unit',
];

/** The seed's WithdrawalRequest list item: `rejection_reason` may be null; `unit` is exactly id, code, name. */
export function decodeWithdrawalRequest(value: unknown, where = 'withdrawal request'): Json {
  const o = object(value, where);
  exactKeys(o, WITHDRAWAL_KEYS, where);
  for (const f of ['id', 'unit_id', 'investor_id']) integer(o, f, where);
  for (const f of ['ownership_percentage', 'invested_amount']) number(o, f, where);
  for (const f of ['reason', 'status']) string(o, f, where);
  stringOrNull(o, 'rejection_reason', where);
  for (const f of ['created_at', 'updated_at']) timestamp(o, f, where);
  const unit = object(o.unit, `${where}.unit`);
  exactKeys(unit, ['id', 'code', 'name'], `${where}.unit`);
  integer(unit, 'id', `${where}.unit`);
  for (const f of ['code', 'name']) string(unit, f, `${where}.unit`);
  return o;
}

const META_KEYS = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'] as const;

/** The seed's `meta` (every page here has items, so `from` and `to` are integers) and, where given, `links`. */
export function decodePage(body: unknown, withLinks: boolean, where = 'page'): { data: unknown[]; meta: Json; links?: Json } {
  const o = object(body, where);
  exactKeys(o, withLinks ? ['success', 'data', 'links', 'meta'] : ['success', 'data', 'meta'], where);
  check(o.success === true, where, 'success', o.success, 'true');
  check(Array.isArray(o.data), where, 'data', o.data, 'an array');
  const meta = object(o.meta, `${where}.meta`);
  exactKeys(meta, META_KEYS, `${where}.meta`);
  for (const f of ['current_page', 'from', 'last_page', 'per_page', 'to', 'total']) integer(meta, f, `${where}.meta`);
  string(meta, 'path', `${where}.meta`);
  check(Array.isArray(meta.links), `${where}.meta`, 'links', meta.links, 'an array');
  (meta.links as unknown[]).forEach((l, i) => {
    const link = object(l, `${where}.meta.links[${i}]`);
    exactKeys(link, ['url', 'label', 'active'], `${where}.meta.links[${i}]`);
    stringOrNull(link, 'url', `${where}.meta.links[${i}]`);
    string(link, 'label', `${where}.meta.links[${i}]`);
    boolean(link, 'active', `${where}.meta.links[${i}]`);
  });
  if (!withLinks) return { data: o.data as unknown[], meta };
  const links = object(o.links, `${where}.links`);
  exactKeys(links, ['first', 'last', 'prev', 'next'], `${where}.links`);
  for (const f of ['first', 'last']) string(links, f, `${where}.links`);
  for (const f of ['prev', 'next']) stringOrNull(links, f, `${where}.links`);
  return { data: o.data as unknown[], meta, links };
}
