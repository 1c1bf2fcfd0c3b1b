import { ITEM_ID, type OperationName } from '../contract/core.js';
import { formatJsonPath, type ScenarioProblem } from '../errors.js';
import type { Stub } from './format.js';

/** Where an operation's stubs were defined: the file, and the stubs (after `extends` is resolved). */
export interface OperationOrigin {
  source: string;
  /** True when the file wrote the operation as a list (paths then carry an index). */
  listed: boolean;
  stubs: Stub[];
}

/**
 * Calls `visit` with the `data` of every response of `origin`'s stubs (responses without data are
 * left out), its JSON path in the file (`operations.<op>[.<index>][.sequence.<i>].data`) and the file.
 */
export function eachData(
  origin: OperationOrigin | undefined,
  op: OperationName,
  visit: (data: unknown, path: PropertyKey[], source: string) => void,
): void {
  origin?.stubs.forEach((stub, index) => {
    const at = ['operations', op, ...(origin.listed ? [index] : [])];
    const responses = stub.sequence?.map((response, i) => [response, [...at, 'sequence', i]] as const) ?? [
      [stub, at] as const,
    ];
    for (const [{ data }, path] of responses) if (data !== undefined) visit(data, [...path, 'data'], origin.source);
  });
}

/**
 * Checks rules that span operations of one resolved scenario:
 * - every plugin `id` equals the `id` of a content provider (docs/contract.md#plugin-entry: "equals the id of
 *   a content provider");
 * - every recommended item's `<provider_id>` (from `V-<provider_id>-<video_id>`) is a content
 *   provider of the scenario (docs/contract.md#recommended-video).
 * Content providers are collected from every response of `meta/cp`.
 */
export function consistencyProblems(operations: Partial<Record<OperationName, OperationOrigin>>): ScenarioProblem[] {
  const providers = new Set<string>();
  eachData(operations['meta/cp'], 'meta/cp', (data) => {
    for (const cp of data as Array<{ id: string }>) providers.add(cp.id);
  });
  const problems: ScenarioProblem[] = [];
  const known = () => [...providers].join(', ') || 'none';
  eachData(operations['meta/plugin'], 'meta/plugin', (data, path, source) => {
    (data as Array<{ id: string }>).forEach((plugin, i) => {
      if (!providers.has(plugin.id)) {
        problems.push({
          source,
          path: formatJsonPath([...path, i, 'id']),
          message: `plugin id "${plugin.id}" must equal the id of a content provider of meta/cp (${known()})`,
        });
      }
    });
  });
  const checkItems = (items: Array<{ id: string }>, path: PropertyKey[], source: string) => {
    items.forEach((item, i) => {
      const provider = ITEM_ID.exec(item.id)?.[1];
      if (provider !== undefined && !providers.has(provider)) {
        problems.push({
          source,
          path: formatJsonPath([...path, i, 'id']),
          message: `item id names provider "${provider}", which is not a content provider of meta/cp (${known()})`,
        });
      }
    });
  };
  eachData(operations['localplay/recomm'], 'localplay/recomm', (data, path, source) =>
    checkItems(data as Array<{ id: string }>, path, source),
  );
  eachData(operations['localplay/diversion'], 'localplay/diversion', (data, path, source) => {
    for (const [key, items] of Object.entries(data as Record<string, Array<{ id: string }>>))
      checkItems(items, [...path, key], source);
  });
  return problems;
}
