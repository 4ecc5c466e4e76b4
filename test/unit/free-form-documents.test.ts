import { ApolloServer } from '@apollo/server';
import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import {
  FREE_FORM_COMPILATIONS_PER_SECOND,
  fixedDocuments,
  fixedDocumentsExecutor,
  freeFormDocuments,
  type FreeFormDocuments,
} from '../../src/graphql/compiled-execution';
import type { Context } from '../../src/http/context';

/**
 * Free-form documents (src/graphql/compiled-execution.ts) through Apollo and the gateway's executor:
 * graphql-js on a document's first execution, compiled from its second, the same answers either way,
 * graphql-js for what graphql-jit refuses, and the compiled documents within their byte bound.
 */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      double: { type: GraphQLInt, args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_root, { n }: { n: number }) => 2 * n },
      refused: {
        type: GraphQLString,
        resolve: () => {
          throw new GraphQLError('Refused.', { extensions: { code: 'FORBIDDEN' } });
        },
      },
    },
  }),
});

async function serverWith(freeForm: FreeFormDocuments) {
  const server = new ApolloServer<Context>({ gateway: fixedDocumentsExecutor(schema, fixedDocuments(schema, []), freeForm) });
  await server.start();
  const run = async (query: string, variables?: Record<string, unknown>, operationName?: string) => {
    const { body } = await server.executeOperation({ query, variables, operationName }, { contextValue: {} as Context });
    if (body.kind !== 'single') throw new Error('expected a single result');
    return body.singleResult;
  };
  return { server, run };
}

it('runs a document on graphql-js first, compiled from its second execution, with the same answers', async () => {
  const freeForm = freeFormDocuments(schema);
  const { server, run } = await serverWith(freeForm);
  try {
    const cases: [string, Record<string, unknown> | undefined][] = [
      ['query Double($n: Int!) { double(n: $n) }', { n: 21 }],
      // A resolver's error and a request error (a variable that does not fit): graphql-js's words both times.
      ['{ double(n: 1) refused }', undefined],
      ['query Double($n: Int!) { double(n: $n) }', { n: 'x' }],
    ];
    for (const [i, [query, variables]] of cases.entries()) {
      const before = { ...freeForm.runs };
      const answers = [await run(query, variables), await run(query, variables), await run(query, variables)];
      expect(answers[0].errors ?? []).toHaveLength(i === 0 ? 0 : 1);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      // The hash is of the text (and operation name): the third case's text, the first's, is compiled already.
      const compiled = i === 2 ? 3 : 2;
      expect(freeForm.runs.compiled - before.compiled).toBe(compiled);
      expect(freeForm.runs.interpreted - before.interpreted).toBe(3 - compiled);
    }
  } finally {
    await server.stop();
  }
});

it('keeps a document graphql-jit refuses on graphql-js, and tells operations of one text apart', async () => {
  const freeForm = freeFormDocuments(schema);
  const { server, run } = await serverWith(freeForm);
  try {
    const text = 'query A { double(n: 1) } query B { double(n: 2) }';
    // Without an operation name graphql-jit refuses to compile it; graphql-js answers its own error.
    const unnamed = [await run(text), await run(text), await run(text)];
    expect(unnamed[0].errors?.[0].message).toBe('Must provide operation name if query contains multiple operations.');
    expect(unnamed[2]).toEqual(unnamed[0]);
    expect(freeForm.runs).toEqual({ compiled: 0, interpreted: 3 });
    for (const [name, value] of [
      ['A', 2],
      ['B', 4],
    ] as const) {
      for (let i = 0; i < 2; i++) expect((await run(text, undefined, name)).data).toEqual({ double: value });
    }
    expect(freeForm.runs).toEqual({ compiled: 2, interpreted: 5 });
  } finally {
    await server.stop();
  }
});

it('keeps the compiled documents within their byte bound under 1 000 distinct documents', () => {
  const bound = 256 * 1024;
  const freeForm = freeFormDocuments(schema, { maxBytes: bound, compilationsPerSecond: Number.MAX_SAFE_INTEGER });
  const source = (i: number) => `query Q${i} { double(n: ${i}) }`;
  for (let i = 0; i < 1000; i++) {
    const document = parse(source(i));
    for (let time = 0; time < 2; time++) freeForm.execution(document, source(i), `Q${i}`);
    expect(freeForm.cachedBytes()).toBeLessThanOrEqual(bound);
  }
  expect(freeForm.runs).toEqual({ compiled: 1000, interpreted: 1000 });
  // Full, and the least recently used went first: the last document still runs compiled, the first not.
  expect(freeForm.cachedBytes()).toBeGreaterThan(bound / 2);
  freeForm.execution(parse(source(999)), source(999), 'Q999');
  freeForm.execution(parse(source(0)), source(0), 'Q0');
  expect(freeForm.runs).toEqual({ compiled: 1001, interpreted: 1001 });
});

it('compiles at most its budget a second: a client cycling through more documents than the bound holds does not make every request compile', () => {
  let clock = 0;
  const freeForm = freeFormDocuments(schema, { maxBytes: 64 * 1024, now: () => clock });
  const source = (i: number) => `query Q${i} { double(n: ${i}) }`;
  const execute = (i: number) => freeForm.execution(parse(source(i)), source(i), `Q${i}`);
  // 500 documents, each sent twice within the same instant: one second's budget compiles, the rest run on graphql-js.
  for (let i = 0; i < 500; i++) for (let time = 0; time < 2; time++) execute(i);
  expect(freeForm.runs.compiled).toBe(FREE_FORM_COMPILATIONS_PER_SECOND);
  expect(freeForm.runs.interpreted).toBe(1000 - FREE_FORM_COMPILATIONS_PER_SECOND);
  // A document past the budget is still known as seen: a second later it compiles on its next execution.
  clock += 1000;
  execute(499);
  expect(freeForm.runs.compiled).toBe(FREE_FORM_COMPILATIONS_PER_SECOND + 1);
});
