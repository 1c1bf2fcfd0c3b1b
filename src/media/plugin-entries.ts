import type { ScenarioCatalog } from '../scenarios/catalog.js';

/** A plugin entry as found in a served body; fields are checked before use. */
export interface EntryLike {
  id?: unknown;
  version?: unknown;
  type?: unknown;
  url?: unknown;
  md5?: unknown;
}

/** Every plugin entry of every response of the scenario's `meta/plugin` stubs (URLs still hold `{origin}`). */
export function pluginEntries(catalog: ScenarioCatalog, scenario: string): EntryLike[] {
  return catalog.get(scenario).operations['meta/plugin'].flatMap((stub) =>
    stub.responses.flatMap((response) => {
      try {
        const data = (JSON.parse(response.body) as { data?: unknown }).data;
        return Array.isArray(data) ? (data as EntryLike[]) : [];
      } catch {
        return [];
      }
    }),
  );
}
