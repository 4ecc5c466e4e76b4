import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  Kind,
  execute,
  getNamedType,
  parse,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import { buildContext, type Context } from '../src/http/context';
import { errorCode } from '../src/http/errors';
import { loadOperations } from '../src/rest/operations';
import { compileExecution, fixedDocuments, fixedDocumentsExecutor, freeFormDocuments } from '../src/graphql/compiled-execution';
import { PERSISTED_DOCUMENTS_PATH, loadPersistedDocuments } from '../src/graphql/trusted-documents';
import { DEMO_EMAILS, startTestGateway, type TestGateway } from './support/harness';

/**
 * Every fixed document the gateway runs (each REST route's operation and each SDK operation of the
 * persisted-documents manifest) gives the same answer compiled (graphql-jit, src/graphql/compiled-execution.ts) as
 * interpreted by graphql-js: the same data and the same errors (message, path, code), for a guest
 * and for each role. Queries run with sample variables (ids 1, page 1, the first enum value, …),
 * which reach both found and not-found paths; mutations run as a guest only, so neither execution
 * changes what the other reads (they answer UNAUTHENTICATED or a validation error alike).
 */
let t: TestGateway;
const contexts: Record<string, () => Promise<Context>> = {};
const meta = { ip: '127.0.0.1', requestId: 'compiled-execution' };

beforeAll(async () => {
  t = await startTestGateway();
  contexts.guest = () => buildContext(t.services, undefined, meta);
  for (const role of ['investor', 'analyst', 'admin'] as const) {
    const token = await t.token(DEMO_EMAILS[role]);
    contexts[role] = () => buildContext(t.services, `Bearer ${token}`, meta);
  }
});
afterAll(() => t.close());

/** A value of the variable's type: enough to run the operation, not necessarily to succeed. */
function sample(type: GraphQLInputType, name: string): unknown {
  if (type instanceof GraphQLNonNull) return sample(type.ofType, name);
  if (type instanceof GraphQLList) return [sample(type.ofType, name)];
  if (type instanceof GraphQLEnumType) return type.getValues()[0].value;
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields()).filter((f) => f.type instanceof GraphQLNonNull);
    return Object.fromEntries(fields.map((f) => [f.name, sample(f.type, f.name)]));
  }
  switch (getNamedType(type).name) {
    case 'Int':
      return name === 'perPage' ? 5 : 1;
    case 'Float':
      return 1.5;
    case 'Boolean':
      return false;
    case 'DateTime':
      return '2026-01-01T00:00:00.000Z';
    case 'Decimal':
      return '10.00';
    case 'Upload':
      return null;
    default:
      return name.toLowerCase().endsWith('id') ? '1' : 'x';
  }
}

/** What a client sees of an answer: data, and each error's message, path, locations and code. */
function answer(result: ExecutionResult) {
  return {
    data: JSON.parse(JSON.stringify(result.data ?? null)) as unknown,
    errors: (result.errors ?? []).map((e) => ({ message: e.message, path: e.path, locations: e.locations, code: errorCode(e) })),
  };
}

interface Case {
  name: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

function cases(): Case[] {
  const rest = [...loadOperations()].map(([name, document]) => ({ name: `REST ${name}`, document }));
  const sdk = [...loadPersistedDocuments(PERSISTED_DOCUMENTS_PATH).values()].map((text) => {
    const document = parse(text);
    const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    return { name: `SDK ${op?.name?.value ?? '(anonymous)'}`, document };
  });
  return [...rest, ...sdk].map(({ name, document }) => ({
    name,
    document,
    operation: document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!,
  }));
}

it('covers every REST route operation and every SDK operation', () => {
  const all = cases();
  expect(all.filter((c) => c.name.startsWith('REST')).length).toBe(loadOperations().size);
  expect(all.filter((c) => c.name.startsWith('SDK')).length).toBe(loadPersistedDocuments(PERSISTED_DOCUMENTS_PATH).size);
});

/** Sample values of the operation's variables. */
function variablesOf(operation: OperationDefinitionNode): Record<string, unknown> {
  const { schema } = t.gateway;
  return Object.fromEntries(
    (operation.variableDefinitions ?? []).map((v) => [
      v.variable.name.value,
      sample(typeFromAST(schema, v.type as never) as GraphQLInputType, v.variable.name.value),
    ]),
  );
}

/** Queries for a guest and each role; mutations for a guest only (see above). */
const rolesOf = (operation: OperationDefinitionNode) => (operation.operation === 'query' ? ['guest', 'investor', 'analyst', 'admin'] : ['guest']);

describe.each(cases().filter((c) => c.operation.operation !== 'subscription'))('$name', ({ name, document, operation }) => {
  it.each(rolesOf(operation))('answers the same compiled and interpreted, as %s', async (role) => {
    const { schema } = t.gateway;
    const variableValues = variablesOf(operation);
    const interpreted = await execute({ schema, document, contextValue: await contexts[role](), variableValues, rootValue: { files: [] } });
    const compiled = await compileExecution(schema, document, name)({ files: [] }, await contexts[role](), variableValues);
    expect(answer(compiled)).toEqual(answer(interpreted));
  });
});

/**
 * Each SDK operation as free text (a comment line ahead, so that no fixed document matches it) through
 * POST /graphql's executor: graphql-js on its first execution, compiled on the next two, and graphql-js's
 * answer each time, with the same variables and roles as above. Each role sends a text of its own.
 */
describe.each(cases().filter((c) => c.name.startsWith('SDK') && c.operation.operation !== 'subscription'))(
  '$name as free text',
  ({ document: fixed, operation }) => {
    it.each(rolesOf(operation))('answers as graphql-js does, compiled from its second execution, as %s', async (role) => {
      const { schema } = t.gateway;
      const freeForm = freeFormDocuments(schema);
      // No fixed document: the runs counted below are the free-form path's.
      const gateway = fixedDocumentsExecutor(schema, fixedDocuments(schema, []), freeForm)!;
      const { executor } = await gateway.load({ apollo: {} });
      // The manifest's text itself (operation and fragments), which the parsed document keeps.
      const source = `# free text, as ${role}\n${fixed.loc!.source.body}`;
      const document = parse(source);
      const variables = variablesOf(operation);
      const operationName = operation.name?.value;
      const interpreted = answer(await execute({ schema, document, contextValue: await contexts[role](), variableValues: variables, operationName }));
      for (let time = 0; time < 3; time++) {
        const context = await contexts[role]();
        const result = await executor!({ source, document, context, request: { variables, operationName } } as never);
        expect(answer(result)).toEqual(interpreted);
      }
      expect(freeForm.runs).toEqual({ compiled: 2, interpreted: 1 });
    });
  },
);

/**
 * A subscription's events: the SDK's subscription documents map a delivered record to the same
 * answer compiled (as the WebSocket runs them, src/graphql/subscriptions.ts) as on graphql-js. Each
 * root is a record as the change feed delivers it, loaded by the service's live source; the roles
 * reach the fields' own authorization (kycStatusChanged is investors' only).
 */
describe.each(cases().filter((c) => c.operation.operation === 'subscription'))('$name', ({ name, document, operation }) => {
  const field = operation.selectionSet.selections[0];
  const fieldName = field.kind === Kind.FIELD ? field.name.value : '';

  /** The first record of the field's type, as its live source loads it. */
  async function delivery() {
    const { prisma } = t.db;
    const loaders: Record<string, () => Promise<unknown>> = {
      notificationAdded: async () => first(t.services.notifications.live.load, (await prisma.notification.findFirstOrThrow({ orderBy: { id: 'asc' } })).id),
      investmentRequestUpdated: async () =>
        first(t.services.investmentRequests.live.load, (await prisma.investmentRequest.findFirstOrThrow({ orderBy: { id: 'asc' } })).id),
      withdrawalRequestUpdated: async () =>
        first(t.services.withdrawalRequests.live.load, (await prisma.withdrawalRequest.findFirstOrThrow({ orderBy: { id: 'asc' } })).id),
      kycStatusChanged: async () => first(t.services.kyc.live.load, (await prisma.kycDocument.findFirstOrThrow({ orderBy: { id: 'asc' } })).investorId),
    };
    return { at: Date.now(), value: await loaders[fieldName]() };
  }

  it.each(['guest', 'investor', 'analyst', 'admin'])('maps an event to the same answer compiled and interpreted, as %s', async (role) => {
    const { schema } = t.gateway;
    const rootValue = await delivery();
    const interpreted = await execute({ schema, document, contextValue: await contexts[role](), rootValue });
    const compiled = await compileExecution(schema, document, name)(rootValue, await contexts[role](), {});
    expect(answer(compiled)).toEqual(answer(interpreted));
    // The record reaches the answer (or the field's authorization refuses it alike, as for a guest).
    if (!interpreted.errors) expect((interpreted.data as Record<string, unknown>)[fieldName]).not.toBeNull();
  });
});

async function first<V>(load: (keys: number[]) => Promise<Map<number, { view: V }>>, key: number): Promise<V> {
  const found = (await load([key])).get(key);
  if (!found) throw new Error(`no record ${key}`);
  return found.view;
}
