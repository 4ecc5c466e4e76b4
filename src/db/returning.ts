import { Prisma } from '../generated/prisma/client';

/** A field's column: the schema maps every camelCase field to its snake_case name (`@map`). */
const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * `column AS "field", …` for the fields of a Prisma scalar `select`: a raw `INSERT … RETURNING`
 * then answers the same row shape as `create({ select })` (Prisma maps the column types), for the
 * writes that need a conditional insert Prisma cannot express.
 */
export function returning(select: Record<string, true>): Prisma.Sql {
  return Prisma.raw(
    Object.keys(select)
      .map((f) => `"${column(f)}" AS "${f}"`)
      .join(', '),
  );
}
