import {
  GraphQLObjectType,
  Kind,
  getNamedType,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileExecution } from '../graphql/compiled-execution';
import type { Context } from '../http/context';
import { InternalError, NotFoundError } from '../domain/errors';
import { present } from '../platform/invariant';
import { isIdempotentField } from '../schema/idempotent';
import { laravelPaginator, type PageInfoShape } from '../services/pagination';
import type { FileRoot } from '../schema/download.type';
import type { DownloadLink } from '../services/download.service';
import { deprecationHeaders, type RouteDeprecation } from './deprecation';
import { compileWriter, envelopeText, type Writer } from './serialize';
import { compileCoercer, type Coercer, type InputSource } from './variables';

declare const raw: unique symbol;
/** A value of a JSON body or form as the client sent it: only the coercer (variables.ts) judges it. */
export type RawValue = { readonly [raw]: true };

export interface RestInput {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, RawValue>;
}

/**
 * What a route may hand the coercer for a variable of the operation's type T: a T, text (path and
 * query string values, coerced by the operation's variable types) or a raw body value; input objects
 * key by key. A key the operation does not declare, or a value of another shape (a number for a
 * String, text for an input object), fails `npm run typecheck` (test/types/rest-variables.ts).
 */
export type Loose<T> =
  | RawValue
  | null
  | undefined
  | (T extends readonly (infer U)[] ? Loose<U>[] : T extends object ? LooseVariables<T> : T extends string | number | boolean ? T | string : T);

/** A route's variables: the operation's own keys, each optional (the coercer reports what is missing). */
export type LooseVariables<T> = { [K in keyof T]?: Loose<T[K]> };

/**
 * One row of the route table: the REST path, the GraphQL operation it runs in-process, how the
 * request maps to the operation's variables, and how the answer is enveloped.
 *  - item: `{success, data}`; paginated: `{success, data, links, meta}`; paginated-meta: no `links`.
 */
export interface RestRoute<TVars = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Name of an operation in src/rest/operations/*.graphql. */
  operation: string;
  variables?: (input: RestInput) => LooseVariables<TVars>;
  envelope?: 'item' | 'paginated' | 'paginated-meta';
  status?: number;
  /** Further success statuses that `outcome` may choose. */
  outcomeStatuses?: number[];
  message?: string;
  /** For operations that answer only true: `data` is `[]`, the message says what happened. */
  emptyData?: boolean;
  /** Status and message that depend on the operation's answer (they override `status` / `message`). */
  outcome?: (value: unknown) => { status?: number; message?: string };
  /**
   * download: the operation answers a `Download` and the route streams that file itself
   * (Content-Disposition: attachment) instead of an envelope; no link is signed (see FileRoot).
   * The media types the file may have.
   */
  download?: readonly string[];
  /** multipart/form-data: the named file field reaches the variables as an `Upload`, streamed to storage. */
  multipartFile?: string;
  summary: string;
  /**
   * The OpenAPI description, for the mobile team: what the route does, who may call it and what
   * it answers for them, and its notable errors (the generator adds the generic ones).
   */
  description: string;
  /** OpenAPI operationId when several rows run one operation (default: `operation`). */
  operationId?: string;
  /**
   * Route-specific errors beyond the generic ones, each with when it happens: a guest route's 401
   * (a credential in the body), a 404 without a path id, a 409 state conflict.
   */
  errors?: { 401?: string; 404?: string; 409?: string };
  /** The domain limits attempts (login, register, password checks): 429 with Retry-After. */
  rateLimited?: boolean;
  auth: 'guest' | 'bearer' | 'admin';
  /** Every answer carries `Cache-Control: no-store` (token answers, contract §2). */
  noStore?: boolean;
  /**
   * The route is to go (docs/api.md, "Deprecation policy"): every answer carries `Deprecation`,
   * `Sunset` and a `Link` to the changelog entry, and the OpenAPI document marks it deprecated.
   */
  deprecated?: RouteDeprecation;
}

/** Declares a route; the type parameter ties its variables to the codegen'd operation types. */
export const route = <TVars>(r: RestRoute<TVars>) => r as RestRoute<unknown>;

export interface RequestUrl {
  /** Absolute URL of the route without query string (Laravel's `path`). */
  path: string;
}

/** An answer's status and JSON text, or the file a download route hands over. */
export type RouteResult = { status: number; body: string } | { file: DownloadLink };

export interface CompiledRoute {
  route: RestRoute<unknown>;
  pattern: RegExp;
  paramNames: string[];
  /** POST running a mutation marked @Idempotent(): an `Idempotency-Key` header makes it replay-safe. */
  idempotent: boolean;
  /** Headers every answer of the route carries, whatever its status (a deprecated route's). */
  headers: Record<string, string>;
  run(ctx: Context, input: RestInput, url: RequestUrl): Promise<RouteResult>;
}

/** A path id that is not a positive integer can only name a missing resource. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2147483647) throw new NotFoundError();
  return Number(raw);
}

/** Parses and validates the document once, at start-up; a route that does not fit the schema fails the boot. */
export function compileRoute(schema: GraphQLSchema, operations: Map<string, DocumentNode>, r: RestRoute<unknown>): CompiledRoute {
  const document = operations.get(r.operation);
  if (!document) throw new Error(`${r.method} ${r.path}: no operation named ${r.operation}`);
  const problems = validate(schema, document);
  if (problems.length) throw new Error(`${r.method} ${r.path}: ${problems.map((p) => p.message).join('; ')}`);
  const execute = compileExecution(schema, document, `${r.method} ${r.path}`);
  const op = present(
    document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION),
    r.operation,
  );
  const root = present(op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType(), op.operation);
  const [field] = op.selectionSet.selections;
  if (op.selectionSet.selections.length !== 1 || field.kind !== Kind.FIELD) throw new Error(`${r.method} ${r.path}: one root field expected`);
  const key = field.alias?.value ?? field.name.value;
  const fieldDef = root.getFields()[field.name.value];
  const fieldType = fieldDef.type;
  const coerce: Coercer = compileCoercer(schema, op.variableDefinitions ?? []);
  // GET routes read the query string and multipart routes form fields (text); the others a JSON body.
  const source: InputSource = r.method === 'GET' || r.multipartFile ? 'text' : 'json';
  const envelope = r.envelope ?? 'item';
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );

  let write: Writer;
  if (envelope === 'item') {
    write = compileWriter(schema, fragments, fieldType, field.selectionSet);
  } else {
    const items = field.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'items');
    if (!items || items.kind !== Kind.FIELD) throw new Error(`${r.method} ${r.path}: paginated routes select items and pageInfo`);
    const pageType = getNamedType(fieldType) as GraphQLObjectType;
    write = compileWriter(schema, fragments, pageType.getFields().items.type, items.selectionSet);
  }

  const paramNames: string[] = [];
  const pattern = new RegExp(
    '^' +
      r.path.replace(/:(\w+)/g, (_m, name: string) => {
        paramNames.push(name);
        return '([^/]+)';
      }) +
      '/?$',
  );

  return {
    route: r,
    pattern,
    paramNames,
    idempotent: r.method === 'POST' && op.operation === 'mutation' && isIdempotentField(fieldDef),
    headers: r.deprecated ? deprecationHeaders(r.deprecated, `${r.method} ${r.path}`) : {},
    async run(ctx, input, url) {
      const variableValues = coerce((r.variables?.(input) ?? {}) as Record<string, unknown>, source);
      const root: FileRoot = { files: [] };
      const result = await execute(root, ctx, variableValues);
      if (result.errors?.length) throw result.errors[0];
      if (r.download) {
        if (!root.files[0]) throw new InternalError(); // the operation's field lacks @UseMiddleware(HandOverFile)
        return { file: root.files[0] };
      }
      const value = (result.data as Record<string, unknown>)[key];
      const decided = r.outcome?.(value);
      const status = decided?.status ?? r.status ?? 200;
      const text = decided?.message ?? r.message;
      const message = text ? { message: text } : {};
      if (envelope === 'item') return { status, body: envelopeText(r.emptyData ? '[]' : write(value), message) };
      const page = value as { items: unknown[]; pageInfo: PageInfoShape };
      const { links, meta } = laravelPaginator(page.pageInfo, url.path, input.query);
      const data = write(page.items);
      return { status, body: envelopeText(data, envelope === 'paginated' ? { links, meta, ...message } : { meta, ...message }) };
    },
  };
}
