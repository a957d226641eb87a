/**
 * Building blocks of the project's JSON Schemas (2020-12). Each schema is a plain object with an `$id`
 * under SCHEMA_BASE_URI; shared sub-schemas are referenced with `$ref`, never copied.
 *
 * `x-requirement` on a constrained property names the requirement id(s) of lib/spec/requirements.ts the
 * constraint enforces. The ids used are collected in ./ids.ts.
 */
export const SCHEMA_BASE_URI = 'https://xs2a-conformance.dev/schemas/';
export const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** A JSON Schema object (kept loose on purpose: the schemas are data). */
export type JsonSchema = { [keyword: string]: unknown };

/** `$ref` to a named schema of the registry, with optional sibling keywords (2020-12 allows them). */
export function ref(name: string, extra: JsonSchema = {}): JsonSchema {
  return { $ref: `${SCHEMA_BASE_URI}${name}`, ...extra };
}

/** Wraps a schema body with `$schema`, `$id` and a title. */
export function named(name: string, description: string, body: JsonSchema): JsonSchema {
  return { $schema: JSON_SCHEMA_2020, $id: `${SCHEMA_BASE_URI}${name}`, title: name, description, ...body };
}

/** The requirement annotation: one id, or several. */
export function req(...ids: string[]): { 'x-requirement': string | string[] } {
  if (ids.length === 0) throw new Error('req() needs at least one requirement id');
  return { 'x-requirement': ids.length === 1 ? (ids[0] as string) : ids };
}
