/**
 * AJV errors turned into errors a person can read: the JSON pointer of the value, the rule broken,
 * the value found, the requirement id the rule enforces, and one line of text, e.g.
 * `/creditorName: at most 70 characters (PAY-05), found 71 characters`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../spec/schemas/index.js';
import { AMOUNT_KEYWORD, FORMAT_DESCRIPTIONS } from './ajv.js';
import {
  AMOUNT_PRECISION,
  AMOUNT_PRECISION_PATTERN,
  AMOUNT_SCALE,
  AMOUNT_SCALE_PATTERN,
  AMOUNT_SYNTAX_PATTERN,
  BIC_PATTERN,
  IBAN_PATTERN,
  fractionDigitsOf,
} from './formats.js';
import { annotationOf, escapePointerSegment, nearestRequirement, requirementIds } from './schema-walk.js';
import type { RequirementAnnotation } from './schema-walk.js';

export interface ReadableError {
  /** JSON pointer of the offending value ('' is the whole body). */
  pointer: string;
  /** The rule broken, e.g. `maxLength 70`, `required`, `format iban`, `unknown property`. */
  rule: string;
  /** The value found at the pointer (undefined for a missing property). */
  found: unknown;
  /** Requirement id(s) of lib/spec/requirements.ts the rule enforces, comma-separated when several. */
  requirement?: string;
  /** One line: `<pointer>: <expectation> (<requirement>), found <value>`. */
  message: string;
}

const MAX_SHOWN = 60;

/** What the project's patterns mean, in words (other patterns are shown as they are). */
const PATTERN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [AMOUNT_SYNTAX_PATTERN]: 'a decimal number with a dot separator and an optional leading minus (no exponent, comma, space or plus)',
  [AMOUNT_PRECISION_PATTERN]: `at most ${AMOUNT_PRECISION} digits (precision ${AMOUNT_PRECISION})`,
  [AMOUNT_SCALE_PATTERN]: `at most ${AMOUNT_SCALE} fraction digits (scale ${AMOUNT_SCALE})`,
  [IBAN_PATTERN]: 'an IBAN in electronic form (country code, 2 check digits, up to 30 letters or digits)',
  [BIC_PATTERN]: 'a BIC of 8 or 11 upper-case characters',
  '^[1-5][0-9]{2}$': 'an HTTP status code of 3 digits',
  '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$': 'an upper-snake-case code',
  '^[a-zA-Z0-9]{1,30}$': '1 to 30 letters or digits',
  '^[0-9]{4}$': '4 digits',
  '^[A-Z0-9]{4}$': '4 capital letters or digits',
};

/** A short, single-line rendering of a value for messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value === 'bigint' ? `${value}` : `(${typeof value})`;
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function chars(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return show(values);
  const shown = values.slice(0, 12).map((v) => (typeof v === 'string' ? v : show(v)));
  return values.length > 12 ? `${shown.join(', ')}, … (${values.length} values)` : shown.join(', ');
}

function param(e: ErrorObject, key: string): unknown {
  return (e.params as Record<string, unknown>)[key];
}

interface Described {
  rule: string;
  expected: string;
  found: string;
}

function describe(e: ErrorObject): Described {
  const data: unknown = e.data;
  switch (e.keyword) {
    case 'maxLength': {
      const n = Number(param(e, 'limit'));
      return { rule: `maxLength ${n}`, expected: `at most ${n} characters`, found: plural(chars(data), 'character') };
    }
    case 'minLength': {
      const n = Number(param(e, 'limit'));
      return {
        rule: `minLength ${n}`,
        expected: n === 1 ? 'non-empty' : `at least ${n} characters`,
        found: plural(chars(data), 'character'),
      };
    }
    case 'required':
      return { rule: 'required', expected: 'is required', found: 'nothing' };
    case 'enum':
      return { rule: 'enum', expected: `one of ${listValues(e.schema)}`, found: show(data) };
    case 'const':
      return { rule: 'const', expected: `equal to ${show(e.schema)}`, found: show(data) };
    case 'pattern': {
      const pattern = String(param(e, 'pattern'));
      return { rule: `pattern ${pattern}`, expected: PATTERN_DESCRIPTIONS[pattern] ?? `matching ${pattern}`, found: show(data) };
    }
    case 'format': {
      const format = String(param(e, 'format'));
      return { rule: `format ${format}`, expected: FORMAT_DESCRIPTIONS[format] ?? `format ${format}`, found: show(data) };
    }
    case 'type': {
      const type = String(param(e, 'type'));
      return {
        rule: `type ${type}`,
        expected: `of type ${type.split(',').join(' or ')}`,
        found: data === undefined ? 'nothing' : `${typeOf(data)} ${show(data)}`,
      };
    }
    case 'minItems':
    case 'maxItems': {
      const n = Number(param(e, 'limit'));
      const count = Array.isArray(data) ? data.length : 0;
      return {
        rule: `${e.keyword} ${n}`,
        expected: `${e.keyword === 'minItems' ? 'at least' : 'at most'} ${n} items`,
        found: plural(count, 'item'),
      };
    }
    case 'uniqueItems':
      return {
        rule: 'uniqueItems',
        expected: 'no duplicate items',
        found: `items ${String(param(e, 'j'))} and ${String(param(e, 'i'))} equal (${show(data)})`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        rule: `${e.keyword} ${String(param(e, 'limit'))}`,
        expected: `${String(param(e, 'comparison'))} ${String(param(e, 'limit'))}`,
        found: show(data),
      };
    case 'minProperties':
    case 'maxProperties': {
      const n = Number(param(e, 'limit'));
      const count = typeof data === 'object' && data !== null ? Object.keys(data).length : 0;
      return {
        rule: `${e.keyword} ${n}`,
        expected: `${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${n} properties`,
        found: count === 1 ? '1 property' : `${count} properties`,
      };
    }
    case 'contains': {
      const parent: JsonSchema | undefined = e.parentSchema;
      const wanted: unknown = parent?.contains;
      const what = typeof wanted === 'object' && wanted !== null && 'const' in wanted ? show(wanted.const) : 'a matching item';
      return { rule: 'contains', expected: `to contain ${what}`, found: show(data) };
    }
    case 'not':
    case 'false schema':
      return { rule: e.keyword === 'not' ? 'absent' : 'false schema', expected: 'must be absent', found: show(data) };
    case AMOUNT_KEYWORD: {
      // AJV (verbose) reports the amount object as data; the offending value is its amount.
      const amount: unknown = typeof data === 'object' && data !== null ? (data as { amount?: unknown }).amount : data;
      return {
        rule: `${AMOUNT_KEYWORD} ${String(param(e, 'mode'))}`,
        expected: e.message ?? 'fraction digits within the currency minor units',
        found: typeof amount === 'string' ? `${show(amount)} (${plural(fractionDigitsOf(amount), 'fraction digit')})` : show(amount),
      };
    }
    default:
      return { rule: e.keyword, expected: e.message ?? e.keyword, found: show(data) };
  }
}

function requirementOf(e: ErrorObject, root: JsonSchema | undefined, pointer: string, rootData: unknown): RequirementAnnotation {
  if (e.keyword === AMOUNT_KEYWORD) {
    const ids = requirementIds(param(e, 'requirement'));
    if (ids.length > 0) return { ids };
  }
  const parent: JsonSchema | undefined = e.parentSchema;
  const nearest = (at: string): RequirementAnnotation => (root ? nearestRequirement(root, at, rootData) : { ids: [] });
  if (e.keyword === 'required') {
    const missing = String(param(e, 'missingProperty'));
    const props = parent?.properties as Record<string, unknown> | undefined;
    return annotationOf(props?.[missing]) ?? annotationOf(parent) ?? nearest(e.instancePath);
  }
  // A registry schema's own x-requirement is a default: an annotation where it is used comes first.
  const own = parent && typeof parent.$id === 'string' ? undefined : annotationOf(parent);
  if (own) return own;
  const found = nearest(pointer);
  if (found.ids.length > 0) return found;
  return annotationOf(parent) ?? found;
}

function foundValue(e: ErrorObject): unknown {
  if (e.keyword === 'required') return undefined;
  const data: unknown = e.data;
  if (e.keyword === AMOUNT_KEYWORD && typeof data === 'object' && data !== null) return (data as { amount?: unknown }).amount;
  return data;
}

/** Keywords whose errors only repeat others (an `if` failing is explained by its `then`). */
const NOISE = new Set(['if']);

/**
 * Readable errors from AJV errors (compiled with `verbose: true`). `root` is the schema validated
 * against, used to find the requirement of rules that carry none themselves; `rootData` the value.
 */
export function readableErrors(errors: readonly ErrorObject[] | null | undefined, root?: JsonSchema, rootData?: unknown): ReadableError[] {
  // One entry per broken rule and place: schemas that meet at one value (a $ref and the schema using it)
  // may both report the same rule; their requirement ids are merged.
  const merged = new Map<string, { pointer: string; d: Described; ids: string[]; found: unknown }>();
  for (const e of errors ?? []) {
    if (NOISE.has(e.keyword)) continue;
    const pointer =
      e.keyword === 'required' ? `${e.instancePath}/${escapePointerSegment(String(param(e, 'missingProperty')))}` : e.instancePath;
    const d = describe(e);
    const annotation = requirementOf(e, root, pointer, rootData);
    const key = `${pointer}\u0000${d.rule}\u0000${d.expected}`;
    const entry = merged.get(key) ?? { pointer, d, ids: [], found: foundValue(e) };
    for (const id of annotation.ids) if (!entry.ids.includes(id)) entry.ids.push(id);
    merged.set(key, entry);
  }
  return [...merged.values()].map(({ pointer, d, ids, found }) => {
    const requirement = ids.length > 0 ? ids.join(', ') : undefined;
    const named = requirement ? ` (${requirement})` : '';
    return {
      pointer,
      rule: d.rule,
      found,
      ...(requirement ? { requirement } : {}),
      message: `${pointer || '/'}: ${d.expected}${named}, found ${d.found}`,
    };
  });
}

/** One line per error, for logs and matcher output. */
export function formatErrors(errors: readonly ReadableError[]): string {
  return errors.map((e) => e.message).join('\n');
}
