/**
 * The one AJV instance of the project: JSON Schema 2020-12, strict mode, every error collected, the
 * specification's formats and two custom keywords:
 * - `x-requirement` (string or array of requirement ids): an annotation naming the requirement a
 *   constraint enforces; it does not validate anything, strict mode only needs to know it.
 * - `amountMatchesCurrency` (true, "at-most" or "exact") on an amount object `{ amount, currency }`:
 *   the fraction digits of `amount` against the ISO 4217 minor units of `currency` (see formats.ts).
 *
 * All schemas of lib/spec/schemas are added on first use; AJV compiles each one lazily on its first
 * `getSchema` and caches it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { DataValidationCxt, SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMAS, SCHEMA_BASE_URI } from '../spec/schemas/index.js';
import type { SchemaName } from '../spec/schemas/index.js';
import { isBic, isIban, isNorwegianNationalId } from '../identifiers/index.js';
import { checkAmount, isCountryCode, isCurrencyCode, isIsoDate, isIsoDateTime, isUuid } from './formats.js';
import type { AmountMode } from './formats.js';

const addFormats = addFormatsModule.default;

/** Names and descriptions of the project's own formats (used in readable errors too). */
export const FORMAT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  iban: 'an IBAN in electronic form with valid ISO 13616 mod-97 check digits',
  bic: 'a BIC (ISO 9362, 8 or 11 characters)',
  'currency-code': "a currency code of the specification's currency list",
  'country-code': "a country code of the specification's country list",
  'iso-date': 'an ISO 8601 date YYYY-MM-DD',
  'iso-date-time': 'a date-time YYYY-MM-DDThh:mm:ss(.fraction)(+hh:mm or Z)',
  uuid: 'a UUID (RFC 4122)',
  'norwegian-national-id': 'a Norwegian national identity number or D-number with valid check digits',
  'uri-reference': 'a URI reference',
  uri: 'a URI',
};

export const REQUIREMENT_KEYWORD = 'x-requirement';
export const AMOUNT_KEYWORD = 'amountMatchesCurrency';

function amountModeOf(schemaValue: unknown): AmountMode | undefined {
  if (schemaValue === true || schemaValue === 'at-most') return 'at-most';
  if (schemaValue === 'exact') return 'exact';
  return undefined;
}

const validateAmount: SchemaValidateFunction = function (
  schemaValue: unknown,
  data: unknown,
  parentSchema?: AnySchemaObject,
  dataCxt?: DataValidationCxt,
): boolean {
  const mode = amountModeOf(schemaValue);
  if (mode === undefined || typeof data !== 'object' || data === null || Array.isArray(data)) return true;
  const { amount, currency } = data as { amount?: unknown; currency?: unknown };
  // Syntax and precision belong to the amount pattern; only the minor-units rule is reported here.
  if (typeof amount !== 'string') return true;
  const issue = checkAmount(amount, currency, mode);
  if (issue === null || issue.rule !== 'amount-minor-units') return true;
  const error: Partial<ErrorObject> = {
    keyword: AMOUNT_KEYWORD,
    instancePath: `${dataCxt?.instancePath ?? ''}/amount`,
    params: {
      currency,
      minorUnits: issue.minorUnits,
      fractionDigits: issue.fractionDigits,
      mode,
      requirement: parentSchema?.[REQUIREMENT_KEYWORD] as unknown,
    },
    message: issue.message,
    data: amount,
  };
  validateAmount.errors = [error];
  return false;
};

let instance: Ajv2020 | undefined;

function createAjv(): Ajv2020 {
  // validateSchema: false: the schemas are checked against the meta-schema by the project's tests
  // (test/spec/schemas.test.ts), not again by each worker as it loads them (a tenth of a second each).
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv, ['uri', 'uri-reference']);
  ajv.addFormat('iban', { type: 'string', validate: isIban });
  ajv.addFormat('bic', { type: 'string', validate: isBic });
  ajv.addFormat('currency-code', { type: 'string', validate: isCurrencyCode });
  ajv.addFormat('country-code', { type: 'string', validate: isCountryCode });
  ajv.addFormat('iso-date', { type: 'string', validate: isIsoDate });
  ajv.addFormat('iso-date-time', { type: 'string', validate: isIsoDateTime });
  ajv.addFormat('uuid', { type: 'string', validate: isUuid });
  ajv.addFormat('norwegian-national-id', { type: 'string', validate: isNorwegianNationalId });
  ajv.addKeyword({
    keyword: REQUIREMENT_KEYWORD,
    schemaType: ['string', 'array'],
    metaSchema: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
      ],
    },
  });
  ajv.addKeyword({
    keyword: AMOUNT_KEYWORD,
    type: 'object',
    schemaType: ['boolean', 'string'],
    metaSchema: { enum: [true, false, 'at-most', 'exact'] },
    errors: true,
    validate: validateAmount,
  });
  for (const schema of Object.values(SCHEMAS)) ajv.addSchema(schema);
  return ajv;
}

/** The project's AJV instance (created on first use). */
export function getAjv(): Ajv2020 {
  instance ??= createAjv();
  return instance;
}

/** `$id` of a named schema. */
export function schemaId(name: SchemaName): string {
  return `${SCHEMA_BASE_URI}${name}`;
}

/** The compiled validator of a named schema (compiled on first use, then cached by AJV). */
export function validatorFor(name: SchemaName): ValidateFunction {
  const validate = getAjv().getSchema(schemaId(name));
  if (!validate) throw new Error(`unknown schema ${name}`);
  return validate;
}
