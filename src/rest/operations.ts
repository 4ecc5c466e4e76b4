import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../platform/paths';
import { Kind, parse, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

/**
 * The REST face's GraphQL operations live in src/rest/operations/*.graphql (one file per feature),
 * where GraphQL Code Generator reads them too. Each operation is handed out as a self-contained
 * document: the operation plus the fragments it uses, transitively.
 */
export const OPERATIONS_DIR = fromRoot('src', 'rest', 'operations');

export function loadOperations(dir = OPERATIONS_DIR): Map<string, DocumentNode> {
  const definitions: DefinitionNode[] = readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .flatMap((f) => parse(readFileSync(path.join(dir, f), 'utf8')).definitions);
  const fragments = new Map(definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const spreads = (node: OperationDefinitionNode | FragmentDefinitionNode) => {
    const names: string[] = [];
    visit(node, { FragmentSpread: (s) => void names.push(s.name.value) });
    return names;
  };
  const operations = new Map<string, DocumentNode>();
  for (const op of definitions) {
    if (op.kind !== Kind.OPERATION_DEFINITION || !op.name) continue;
    const used = new Map<string, FragmentDefinitionNode>();
    const pending = spreads(op);
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      const fragment = fragments.get(name);
      if (!fragment) throw new Error(`operation ${op.name.value}: unknown fragment ${name}`);
      if (!used.has(name)) {
        used.set(name, fragment);
        pending.push(...spreads(fragment));
      }
    }
    operations.set(op.name.value, { kind: Kind.DOCUMENT, definitions: [op, ...used.values()] });
  }
  return operations;
}
