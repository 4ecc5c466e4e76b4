/**
 * A REST route that is to go (docs/api.md, "Deprecation policy"): it keeps answering as before, and
 * every answer says so with `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link` to the
 * changelog entry that announced it (rel="deprecation", RFC 9745 §3).
 */
export interface RouteDeprecation {
  /** When it was deprecated: an ISO 8601 date (UTC) or date-time. */
  since: string;
  /** The earliest it may stop answering: an ISO 8601 date (UTC) or date-time, at least 6 months after `since`. */
  sunset: string;
  /** The changelog entry that announces it and names the replacement: an absolute URL with the entry's anchor. */
  changelog: string;
}

/** The documented period (docs/api.md, "Deprecation policy"): a route answers deprecated for at least this long. */
export const MIN_DEPRECATION_MONTHS = 6;

function instant(value: string, what: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw new Error(`${what} "${value}" is not an ISO 8601 date (YYYY-MM-DD) or date-time`);
  return at;
}

/** The headers every answer of a deprecated route carries; throws (at start-up) when the declaration breaks the policy. */
export function deprecationHeaders(d: RouteDeprecation, route: string): Record<string, string> {
  const since = instant(d.since, `${route}: deprecated.since`);
  const sunset = instant(d.sunset, `${route}: deprecated.sunset`);
  const earliest = new Date(since);
  earliest.setUTCMonth(earliest.getUTCMonth() + MIN_DEPRECATION_MONTHS);
  if (sunset < earliest) throw new Error(`${route}: deprecated.sunset ${d.sunset} is less than ${MIN_DEPRECATION_MONTHS} months after ${d.since}`);
  if (!/^https?:\/\/[^\s<>"]+#[^\s<>"]+$/.test(d.changelog)) throw new Error(`${route}: deprecated.changelog must be an absolute URL with the entry's #anchor`);
  return {
    // RFC 9745 §2.1: an RFC 9651 Date, `@` and the Unix time in seconds.
    Deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    // RFC 8594 §3: an HTTP-date (IMF-fixdate).
    Sunset: sunset.toUTCString(),
    Link: `<${d.changelog}>; rel="deprecation"; type="text/html"`,
  };
}
