/**
 * The registry of the project's JSON Schemas (2020-12), by short name. Every schema has the `$id`
 * `${SCHEMA_BASE_URI}${name}`; lib/validate compiles them on one AJV instance.
 */
import { ACCOUNT_SCHEMAS } from './account-schemas.js';
import type { JsonSchema } from './base.js';
import { COMMON_SCHEMAS } from './common-schemas.js';
import { PAYMENT_SCHEMAS } from './payment-schemas.js';
import { SCA_SCHEMAS } from './sca-schemas.js';
export { SCHEMA_BASE_URI } from './base.js';
export type { JsonSchema } from './base.js';
export { TRANSACTION_STATUSES, MESSAGE_CODES, type MessageCode } from './common-schemas.js';
export { BASKET_TRANSACTION_STATUSES } from './sca-schemas.js';

const ALL = { ...COMMON_SCHEMAS, ...PAYMENT_SCHEMAS, ...SCA_SCHEMAS, ...ACCOUNT_SCHEMAS };

export type SchemaName = keyof typeof ALL;

export const SCHEMAS: Readonly<Record<SchemaName, JsonSchema>> = ALL;

export const SCHEMA_NAMES = Object.keys(ALL) as SchemaName[];

export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(ALL, name);
}
