/**
 * The published JSON Schema of results.json (lib/report/schema/results-v<N>.schema.json), and a validator
 * for it. The schema is versioned with `schemaVersion`: a change a reader could trip on raises the version
 * and adds a file; the old files stay.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { RESULTS_SCHEMA_VERSION } from './results.js';

export const RESULTS_SCHEMA_FILE = new URL(`./schema/results-v${RESULTS_SCHEMA_VERSION}.schema.json`, import.meta.url);

const addFormats = addFormatsModule.default;

let compiled: ReturnType<Ajv['compile']> | undefined;

/** Problems of a results.json against the schema, one line each (`/tests/3/status: must be equal to one of …`); empty when valid. */
export function resultsSchemaErrors(data: unknown): string[] {
  compiled ??= addFormats(new Ajv({ allErrors: true, strict: true })).compile(
    JSON.parse(readFileSync(RESULTS_SCHEMA_FILE, 'utf8')) as object,
  );
  if (compiled(data)) return [];
  return (compiled.errors ?? []).slice(0, 20).map(describe);
}

function describe(error: ErrorObject): string {
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String(error.params.additionalProperty)})`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify(error.params.allowedValues)})`
        : '';
  return `${error.instancePath || '/'}: ${error.message ?? error.keyword}${extra}`;
}
