import { IsOptional } from 'class-validator';
import { ArgsType, Field, Int, registerEnumType } from 'type-graphql';
import { StatementFormat } from '../services/statement.service';
import { DateScalar } from './scalars';

export { StatementFormat };

registerEnumType(StatementFormat, {
  name: 'StatementFormat',
  description: 'PDF (default) or CSV.',
  valuesConfig: {
    PDF: {
      description:
        "application/pdf with embedded Unicode fonts, page numbers and the whole disclaimer, in the investor's language where statements are translated (else English), amounts in their settings' currency, the time in their time zone.",
    },
    CSV: {
      description:
        'text/csv, UTF-8 with a byte order mark, RFC 4180 quoting; English headers, amounts as plain decimals and a last Currency column (ISO 4217) in sections with amounts.',
    },
  },
});

@ArgsType()
export class StatementFormatArgs {
  @Field(() => StatementFormat, { nullable: true, defaultValue: StatementFormat.PDF, description: 'PDF (default) or CSV (UTF-8 with BOM).' })
  @IsOptional()
  format?: StatementFormat | null;
}

@ArgsType()
export class ProfitStatementArgs extends StatementFormatArgs {
  @Field(() => DateScalar, { nullable: true, description: 'Inclusive UTC date; default: 1 January of the year of `to`.' })
  from?: Date | null;

  @Field(() => DateScalar, { nullable: true, description: 'Inclusive UTC date; default: today.' })
  to?: Date | null;
}

@ArgsType()
export class TaxStatementArgs extends StatementFormatArgs {
  @Field(() => Int, { nullable: true, description: 'Tax year, 2000 to the current year; default: last year.' })
  year?: number | null;
}
