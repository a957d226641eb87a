/**
 * The requirement ids the schemas name: every one exists in the catalogue, and every pending note is
 * one of the documented gaps of the catalogue.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REQUIREMENTS, REQUIREMENT_ID_PATTERN } from '../../lib/spec/requirements.js';
import { SCHEMAS } from '../../lib/spec/schemas/index.js';
import { requirementIds } from '../../lib/validate/schema-walk.js';

/** Every value of a keyword anywhere in the schemas, with where it was found. */
function collect(keyword: string): { where: string; value: unknown }[] {
  const out: { where: string; value: unknown }[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${where}/${i}`));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === keyword) out.push({ where, value });
      else walk(value, `${where}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(SCHEMAS)) walk(schema, name);
  return out;
}

describe('requirement ids named by the schemas', () => {
  const named = collect('x-requirement');
  const known = new Set(REQUIREMENTS.map((r) => r.id));

  it('the schemas name requirement ids', () => {
    assert.ok(named.length > 100, `only ${named.length} x-requirement annotations`);
  });

  it('every x-requirement is an id or a non-empty list of ids of the catalogue pattern', () => {
    for (const { where, value } of named) {
      const ids = requirementIds(value);
      assert.ok(ids.length > 0, `${where}: ${JSON.stringify(value)}`);
      for (const id of ids) assert.match(id, REQUIREMENT_ID_PATTERN, where);
    }
  });

  it('every id a schema names exists in REQUIREMENTS', () => {
    const missing = new Set<string>();
    for (const { value } of named) for (const id of requirementIds(value)) if (!known.has(id)) missing.add(id);
    assert.deepEqual([...missing].sort(), []);
  });

  it('no named requirement is retired', () => {
    const retired = new Set(REQUIREMENTS.filter((r) => r.retired).map((r) => r.id));
    const used = named.flatMap(({ value }) => requirementIds(value)).filter((id) => retired.has(id));
    assert.deepEqual(used, []);
  });
});
