import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { RequestHandler } from 'express';
import { CACHE_BYTES, byteBoundedLru, hashKey } from '../platform/bounded-cache';
import type { Context } from '../http/context';
import { HttpError, graphqlErrorAnswer } from '../http/errors';
import { NEW_LISTINGS, RECENT_ACTIVITY, TOP_GAINERS } from '../services/dashboard.service';
import { UNPAGED_LIST_MAX } from '../services/listing';
import { QUARTERS_SHOWN } from '../services/portfolio.service';
import type { AuthUser } from '../domain/auth-user';
import { Role, WithdrawalRequestStatus } from '../generated/prisma/enums';

/**
 * What one GraphQL document may ask for (docs/api.md, "Limits"). The REST route table runs its own
 * fixed documents in-process and never meets these; test/graphql-limits.test.ts checks that every one
 * of them would pass anyway, at perPage 100.
 */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens, counted by graphql-js's parser, which stops before building the rest of the AST. */
  maxTokens: 2000,
  /** Nested selection sets (a fragment spread counts as one level); introspection's `__schema` is exempt. */
  maxDepth: 8,
  /** Aliased fields, `__typename` included, counted once per fragment spread. */
  maxAliases: 15,
  /** Directives written anywhere in the document: operations, fields, fragment spreads, inline fragments, fragments. */
  maxDirectives: 20,
  /** See `fieldCost`. */
  maxCost: 10_000,
  /** An answer's JSON (aliases, not the cost model, set how long its keys are): larger ones are refused. */
  maxAnswerBytes: 2 * 1024 * 1024,
} as const;

/** Cost model (docs/api.md): what a field adds on top of what it selects. */
export const COST = {
  /** A root query or mutation field: each runs its own SQL statements. */
  rootField: 10,
  field: 1,
  /** A paginated field without `perPage` returns this many rows (the resolver's default)... */
  defaultPerPage: 15,
  /** ...and never more than this many, whatever `perPage` says (the resolver refuses more). */
  maxPerPage: 100,
  /**
   * A list that takes no `perPage` is priced at the most it can answer: its own bound from
   * LIST_BOUNDS, else UNPAGED_LIST_MAX, which the services enforce (`take`) on every list that grows.
   */
  unpagedListSize: UNPAGED_LIST_MAX,
} as const;

/** Lists without pages whose size is fixed by the service (dashboard sections, quarters shown, one row per status). */
export const LIST_BOUNDS: Record<string, number> = {
  'Dashboard.topGainers': TOP_GAINERS,
  'Dashboard.newListings': NEW_LISTINGS,
  'Dashboard.recentActivity': RECENT_ACTIVITY,
  'Dashboard.trends': QUARTERS_SHOWN,
  'PortfolioPerformance.distributionsByQuarter': QUARTERS_SHOWN,
  'Query.withdrawalVolumes': Object.keys(WithdrawalRequestStatus).length,
};

/** Arguments that set how many items a list field answers. */
const PAGE_SIZE_ARGS = ['perPage', 'first'];

/** Errors that the request pipeline turns into HTTP 400 with this code. */
function refusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });
}

/**
 * graphql-query-complexity estimator. A field costs 1 (10 at the root) plus what it selects; a list
 * multiplies what it selects by its size: `perPage`/`first` (default 15, clamped to 1..100), or
 * for a list without such an argument the most it answers (LIST_BOUNDS, else UNPAGED_LIST_MAX). `items` of a page is priced once per item by its parent.
 * `__typename` costs 1 like any field. Introspection (`__schema`, `__type` and what they select)
 * costs nothing here: its size is the schema's, and who may run it is decided apart.
 */
export function fieldCost(schema: GraphQLSchema): ComplexityEstimator {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);
  return ({ type, field, args, childComplexity }) => {
    // `__typename` is a selection like any other (it fills the answer); the rest of introspection is free.
    if (type.name.startsWith('__') || (field.name.startsWith('__') && field.name !== '__typename')) return 0;
    const own = roots.has(type.name) ? COST.rootField : COST.field;
    const sizeArg = field.args.find((a) => PAGE_SIZE_ARGS.includes(a.name));
    if (sizeArg) {
      const requested = Number(args[sizeArg.name] ?? COST.defaultPerPage);
      const size = Number.isFinite(requested) ? Math.min(Math.max(Math.trunc(requested), 1), COST.maxPerPage) : COST.maxPerPage;
      return own + size * childComplexity;
    }
    const isPageItems = field.name === 'items' && 'pageInfo' in ('getFields' in type ? type.getFields() : {});
    if (!isPageItems && isListType(getNullableType(field.type)) && isCompositeType(getNamedType(field.type))) {
      return own + (LIST_BOUNDS[`${type.name}.${field.name}`] ?? COST.unpagedListSize) * childComplexity;
    }
    return own + childComplexity;
  };
}

/** The cost of running `document` with these variables (throws a GraphQLError for invalid variables). */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}, operationName?: string): number {
  return getComplexity({ schema, query: document, variables, operationName: operationName ?? undefined, estimators: [fieldCost(schema)] });
}

/**
 * Every directive in the document, wherever it stands. graphql-armor's rule counts the directives
 * of a fragment spread only at the first spread of each fragment (`...F @include(if: true)` × 60
 * passed), so this one counts Directive nodes with graphql-js's visitor, which walks the document
 * with its own stack rather than by recursion. Same message as armor's other limits.
 */
export const maxDirectivesRule: ValidationRule = (context) => {
  let count = 0;
  return {
    Directive() {
      count++;
    },
    Document: {
      leave() {
        if (count > GRAPHQL_LIMITS.maxDirectives) {
          context.reportError(new GraphQLError(`Syntax Error: Directives limit of ${GRAPHQL_LIMITS.maxDirectives} exceeded, found ${count}.`));
        }
      },
    },
  };
};

/**
 * Depth and aliases from graphql-armor, plus our directive limit, as validation rules (HTTP 400,
 * GRAPHQL_VALIDATION_FAILED). Armor's alias rule exempts `__typename` by default: not here, an
 * aliased `__typename` fills the answer like any field. Its token limit and cost limit are not
 * used: graphql-js's parser counts tokens itself (`parseOptions.maxTokens`), and armor's cost
 * ignores `perPage`.
 */
export function limitValidationRules(): ValidationRule[] {
  const { validationRules } = new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, allowList: [] },
    maxDirectives: { enabled: false },
    maxTokens: { enabled: false },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return [...validationRules, maxDirectivesRule];
}

/**
 * Refuses an answer whose JSON is over `GRAPHQL_LIMITS.maxAnswerBytes` (400 RESPONSE_TOO_LARGE)
 * instead of sending it. The cost limit bounds the work and the number of values; this bounds the
 * bytes, which an alias (a key of any length, repeated once per list item) can multiply. Mounted
 * before Apollo's handler on /graphql, whose single answers go out through `res.send`.
 */
export function answerSizeCap(maxBytes: number = GRAPHQL_LIMITS.maxAnswerBytes): RequestHandler {
  return (_req, res, next) => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      // A UTF-16 length under a third of the cap cannot reach it in UTF-8: no need to count bytes.
      if (typeof body !== 'string' || body.length * 3 <= maxBytes || Buffer.byteLength(body) <= maxBytes) return send(body);
      const answer = graphqlErrorAnswer(HttpError.responseTooLarge(maxBytes));
      res.status(answer.status);
      return send(JSON.stringify(answer.body));
    };
    next();
  };
}

/** Admins and analysts: they explore the schema and write their own queries (contract §3). */
export function isStaff(user: AuthUser | null): boolean {
  return user?.role === Role.ADMIN || user?.role === Role.ANALYST;
}

/** Who may see the schema (introspection, "Did you mean …" hints): everyone outside production. */
export function mayExploreSchema(production: boolean, user: AuthUser | null): boolean {
  return !production || isStaff(user);
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * Per-request checks that need the variables or the user, run once the operation is known and
 * before anything executes: the cost limit, and in production introspection and field suggestions
 * only for admins and analysts (contract §3).
 */
export function limitsPlugin(schema: GraphQLSchema, production: boolean): ApolloServerPlugin<Context> {
  // Apollo hands out the same DocumentNode for a repeated query (its document cache): check each once.
  const introspects = new WeakMap<DocumentNode, string | null>();
  const introspection = (document: DocumentNode) => {
    const known = introspects.get(document);
    if (known !== undefined) return known;
    const message = validate(schema, document, [NoSchemaIntrospectionCustomRule])[0]?.message ?? null;
    introspects.set(document, message);
    return message;
  };
  // The cost is a function of the document, the variables and the operation alone: computed once
  // for each such triple while it stays in a byte-bounded LRU keyed by their hash.
  const costs = byteBoundedLru<number>(CACHE_BYTES.costs, () => 8);
  const costOf = (document: DocumentNode, queryHash: string, variables: Record<string, unknown> | undefined, operationName: string | null | undefined) => {
    const key = hashKey(queryHash, operationName ?? '', JSON.stringify(variables ?? {}));
    let cost = costs.get(key);
    if (cost === undefined) {
      cost = queryCost(schema, document, variables, operationName ?? undefined);
      costs.set(key, cost);
    }
    return cost;
  };
  return {
    async requestDidStart({ contextValue }) {
      const explorer = mayExploreSchema(production, contextValue.user);
      return {
        async didResolveOperation({ document, queryHash, request, operationName }) {
          const refused = explorer ? null : introspection(document);
          if (refused) throw refusal(refused);
          let cost: number;
          try {
            cost = costOf(document, queryHash, request.variables, operationName);
          } catch (err) {
            // Variables that do not fit their types: execution would refuse them the same way.
            throw new GraphQLError(err instanceof Error ? err.message : String(err), { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
          }
          if (cost > GRAPHQL_LIMITS.maxCost) throw refusal(`Query cost limit of ${GRAPHQL_LIMITS.maxCost} exceeded, found ${cost}.`);
        },
        async didEncounterErrors({ errors }) {
          if (explorer) return;
          for (const error of errors) error.message = error.message.replace(SUGGESTION, '');
        },
      };
    },
  };
}
