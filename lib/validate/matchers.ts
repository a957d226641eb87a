/**
 * The Playwright matcher `await expect(response).toMatchSchema('Name')`, for `expect.extend(...)`.
 *
 * `received` is either a plain value, URLSearchParams (redirect query parameters), or a response
 * object with a `json()` method (the TPP client's TppResponse, or Playwright's APIResponse, whose
 * json() is async). A body that is not JSON fails with
 * a clear message. Failures print, h2spec style, Expected (the schema and the broken rules with their
 * requirement ids) and Actual (the offending values). Unknown properties are warnings: they are pushed
 * to `test.info().annotations` as `{ type: 'warning', description }` and never fail the assertion.
 */
import { test } from '@playwright/test';
import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test';
import { isSchemaName, SCHEMA_NAMES } from '../spec/schemas/index.js';
import type { SchemaName } from '../spec/schemas/index.js';
import { show } from './readable-errors.js';
import type { ReadableError } from './readable-errors.js';
import { validateAgainst } from './index.js';

interface JsonBearer {
  json(): unknown;
  bodyText?: string;
  text?: () => unknown;
}

function hasJson(value: unknown): value is JsonBearer {
  return typeof value === 'object' && value !== null && typeof (value as { json?: unknown }).json === 'function';
}

async function bodyTextOf(received: JsonBearer): Promise<string | undefined> {
  if (typeof received.bodyText === 'string') return received.bodyText;
  if (typeof received.text === 'function') {
    try {
      const text: unknown = await received.text();
      return typeof text === 'string' ? text : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The value to validate: the received value itself, or the parsed body of a response. */
export async function bodyOf(received: unknown): Promise<{ ok: true; value: unknown } | { ok: false; problem: string }> {
  if (received instanceof URLSearchParams) return { ok: true, value: Object.fromEntries(received.entries()) };
  if (!hasJson(received)) return { ok: true, value: received };
  try {
    return { ok: true, value: await received.json() };
  } catch (error) {
    const text = await bodyTextOf(received);
    const reason = error instanceof Error ? error.message : String(error);
    const excerpt = text === undefined ? '' : text === '' ? ' (the body is empty)' : `: ${show(text)}`;
    return { ok: false, problem: `the body is not JSON (${reason})${excerpt}` };
  }
}

/** Where warnings go; by default the running Playwright test's annotations (nothing outside a test). */
export type WarningSink = (description: string) => void;

let warningSink: WarningSink = (description) => {
  try {
    test.info().annotations.push({ type: 'warning', description });
  } catch {
    // not inside a Playwright test (e.g. a unit test of the matcher): the warning has nowhere to go
  }
};

/** Replaces the warning sink (for the project's own tests); returns the previous one. */
export function setWarningSink(sink: WarningSink): WarningSink {
  const previous = warningSink;
  warningSink = sink;
  return previous;
}

function indent(lines: readonly string[]): string {
  return lines.map((l) => `  ${l}`).join('\n');
}

function expectedLines(name: string, errors: readonly ReadableError[]): string {
  const rules = errors.map((e) => e.message.replace(/, found .*$/, ''));
  return `Expected: a body matching schema ${name}\n${indent(rules)}`;
}

function actualLines(errors: readonly ReadableError[]): string {
  const found = errors.map((e) => `${e.pointer || '/'} = ${e.found === undefined ? '(absent)' : show(e.found)}`);
  return `Actual:\n${indent(found)}`;
}

export const schemaMatchers = {
  async toMatchSchema(this: ExpectMatcherState, received: unknown, name: SchemaName): Promise<MatcherReturnType> {
    const matcherName = 'toMatchSchema';
    if (!isSchemaName(name)) {
      return {
        name: matcherName,
        pass: false,
        message: () => `Expected: a schema name, one of ${SCHEMA_NAMES.join(', ')}\nActual:   ${show(name)}`,
      };
    }
    const body = await bodyOf(received);
    if (!body.ok) {
      return {
        name: matcherName,
        pass: false,
        expected: name,
        message: () => `Expected: a JSON body matching schema ${name}\nActual:   ${body.problem}`,
      };
    }
    const result = validateAgainst(name, body.value);
    for (const warning of result.warnings) warningSink(`${name}: ${warning.message}`);
    const pass = result.valid;
    return {
      name: matcherName,
      pass,
      expected: name,
      actual: body.value,
      message: () =>
        pass
          ? `Expected: a body NOT matching schema ${name}\nActual:   it matches${result.warnings.length ? ` (with ${result.warnings.length} unknown properties)` : ''}`
          : `${expectedLines(name, result.errors)}\n${actualLines(result.errors)}`,
    };
  },
};
