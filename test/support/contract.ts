import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { fromRoot } from '../../src/platform/paths';

/**
 * The contract test: every REST answer a test receives through the harness is checked against the
 * committed docs/openapi.json (OpenAPI 3.1, so its schemas are JSON Schema 2020-12: Ajv's 2020
 * dialect). An undeclared status or media type, or a body its schema refuses, fails the test that
 * received it. Requests outside the documented operations (unknown routes, wrong methods, /graphql)
 * are not REST answers of an operation and are left alone.
 */
type Json = Record<string, unknown>;

const BASE = '/api/v1';
const METHODS = ['get', 'post', 'put', 'delete'] as const;

const doc = JSON.parse(readFileSync(fromRoot('docs', 'openapi.json'), 'utf8')) as Json & { paths: Record<string, Record<string, Json>> };

/**
 * Inlines the document's local references (its components do not refer to themselves); each
 * component is resolved once, so every use of it is the same object (compiled once below).
 */
const resolved = new Map<string, unknown>();
function deref(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(deref);
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (!resolved.has(ref))
      resolved.set(
        ref,
        deref(
          ref
            .slice(2)
            .split('/')
            .reduce<unknown>((at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc),
        ),
      );
    return resolved.get(ref);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v)]));
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

const operations: Operation[] = Object.entries(doc.paths)
  .flatMap(([template, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${BASE}${template.replace(/\{\w+\}/g, '[^/]+')}/?$`),
      params: (template.match(/\{/g) ?? []).length,
      responses: deref((item[method] as Json).responses) as Operation['responses'],
    })),
  )
  // Literal segments win over parameters, as in the router: `/x/available` before `/x/{id}`.
  .sort((a, b) => a.params - b.params);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('binary', true);
/** Compiled on first use, once per schema: the error envelope, shared by every error status, is one. */
const validators = new Map<object, ValidateFunction>();

function validatorFor(schema: Json): ValidateFunction {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = ajv.compile(schema)));
  return v;
}

/** Throws (failing the receiving test) when an answer does not match docs/openapi.json. */
export function checkContract(res: Response): void {
  const req = (res as unknown as { req: { method: string; path: string } }).req;
  const path = req.path.split('?')[0]; // still %-encoded: the templates' literal segments are plain ASCII
  if (req.method === 'HEAD' || !path.startsWith(`${BASE}/`)) return;
  const op = operations.find((o) => o.method === req.method && o.pattern.test(path));
  if (!op) return;
  const where = `${op.method} ${op.template} answered ${res.status}`;
  const declared = op.responses[String(res.status)];
  if (!declared) throw new Error(`${where}, a status docs/openapi.json does not declare for it: ${JSON.stringify(res.body)}`);
  if (!declared.content) return;
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const media = declared.content[type];
  if (!media) throw new Error(`${where} with ${type || 'no content type'}; docs/openapi.json declares ${Object.keys(declared.content).join(', ')}`);
  if (type !== 'application/json' || !media.schema) return;
  // Tests that read files install a binary parser; their error answers arrive as bytes.
  const body: unknown = Buffer.isBuffer(res.body) ? JSON.parse(res.body.toString('utf8')) : res.body;
  const validate = validatorFor(media.schema);
  if (!validate(body)) {
    throw new Error(
      `${where} with a body docs/openapi.json refuses: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}

type Agent = Record<(typeof METHODS)[number], (url: string) => { expect(check: (res: Response) => void): unknown }>;

/** Every request made through the returned agent checks its answer with checkContract. */
export function withContract<T extends object>(agent: T): T {
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !(METHODS as readonly string[]).includes(prop)) return value;
      return (url: string) => (target as unknown as Agent)[prop as (typeof METHODS)[number]](url).expect(checkContract);
    },
  });
}
