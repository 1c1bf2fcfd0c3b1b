// har-validator (JSON Schema of HAR 1.2, as DevTools and Charles read it) with a type: it ships none.
import { createRequire } from 'node:module';

interface HarValidator {
  /** Resolves to true for a valid HAR; rejects with a HARError whose `errors` name each failing path. */
  har(data: unknown): Promise<boolean>;
}

const validator = createRequire(import.meta.url)('har-validator') as HarValidator;

/** The schema errors of `data` as HAR 1.2 (`<path> <message>` each); empty when it is valid. */
export async function harProblems(data: unknown): Promise<string[]> {
  try {
    await validator.har(data);
    return [];
  } catch (error) {
    const errors = (error as { errors?: Array<{ dataPath?: string; instancePath?: string; message?: string }> }).errors;
    if (!errors) throw error;
    return errors.map((e) => `${e.dataPath ?? e.instancePath ?? ''} ${e.message ?? ''}`.trim());
  }
}
