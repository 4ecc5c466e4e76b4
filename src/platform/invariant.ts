/**
 * A value the code's own logic guarantees (a validated config pair, a row the query just filtered
 * on, a map filled from the same list): its absence is our bug, thrown as such instead of a `!`.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`invariant broken: ${what} is missing`);
  return value;
}
