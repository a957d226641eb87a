/**
 * Validation of bodies against the project's JSON Schemas: `validateAgainst(name, value)` answers
 * whether the value is valid, the readable errors, and as warnings the properties the schema does not
 * describe or marks deprecated (they never fail a body; the schemas carry no `additionalProperties: false`).
 */
import { SCHEMAS } from '../spec/schemas/index.js';
import type { SchemaName } from '../spec/schemas/index.js';
import { validatorFor } from './ajv.js';
import { readableErrors, show } from './readable-errors.js';
import type { ReadableError } from './readable-errors.js';
import { exercisedRequirements, ownRequirement, propertyNotices } from './schema-walk.js';

export type { ReadableError } from './readable-errors.js';
export { formatErrors } from './readable-errors.js';
export { getAjv, validatorFor } from './ajv.js';
export type { SchemaName } from '../spec/schemas/index.js';
export * from './formats.js';
export interface ValidationResult {
  valid: boolean;
  errors: ReadableError[];
  warnings: ReadableError[];
}

/** Whether `value` is valid against the named schema, and its readable errors. */
function schemaErrors(name: SchemaName, value: unknown): { valid: boolean; errors: ReadableError[] } {
  const validate = validatorFor(name);
  const valid = validate(value);
  return { valid, errors: valid ? [] : readableErrors(validate.errors, SCHEMAS[name], value) };
}

/** Validates `value` against the named schema. */
export function validateAgainst(name: SchemaName, value: unknown): ValidationResult {
  const { valid, errors } = schemaErrors(name, value);
  const warnings: ReadableError[] = propertyNotices(name, value).map(({ pointer, value: found, kind, requirement }) => {
    if (kind === 'deprecated') {
      const ids = requirement.join(', ');
      return {
        pointer,
        rule: 'deprecated property',
        found,
        ...(ids ? { requirement: ids } : {}),
        message: `${pointer}: a deprecated property${ids ? ` (${ids})` : ''} (warning), found ${show(found)}`,
      };
    }
    return {
      pointer,
      rule: 'unknown property',
      found,
      message: `${pointer}: a property the schema ${name} does not describe (warning), found ${show(found)}`,
    };
  });
  return { valid, errors, warnings };
}

/** Per requirement: the errors a value has against a schema, and the requirements it satisfied. */
export interface RequirementVerdicts {
  failed: Map<string, ReadableError[]>;
  passed: Set<string>;
}

/**
 * The errors of `value` against a schema, by requirement: each error goes to the ids its rule names (the
 * schema's own ids when a rule names none). All a bank that refuses a body needs.
 */
export function failedRequirements(name: SchemaName, value: unknown): Map<string, ReadableError[]> {
  const failed = new Map<string, ReadableError[]>();
  const fallback = ownRequirement(SCHEMAS[name]);
  for (const error of schemaErrors(name, value).errors) {
    const ids = error.requirement ? error.requirement.split(',').map((id) => id.trim()) : fallback;
    for (const id of ids) failed.set(id, [...(failed.get(id) ?? []), error]);
  }
  return failed;
}

/**
 * Validates `value` and sorts the outcome by requirement: what failed (failedRequirements), and every other requirement the value
 * exercised, passed.
 */
export function verdictsAgainst(name: SchemaName, value: unknown): RequirementVerdicts {
  const failed = failedRequirements(name, value);
  const passed = new Set([...exercisedRequirements(name, value)].filter((id) => !failed.has(id)));
  return { failed, passed };
}
