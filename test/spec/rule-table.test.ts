/**
 * The rule table (lib/spec/rule-table.ts) has a cell for every rule, payment service, product and state:
 * a service or product added to payment-products.ts without its cells fails here (and in the typecheck),
 * as does a row whose cells are judged by no scenario or left without a reason.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../../lib/cli/package-root.js';
import { SCENARIO_ID_PATTERN } from '../../lib/fixtures/scenario.js';
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES, PRODUCT_ALIASES, paymentProductOf } from '../../lib/spec/payment-products.js';
import { requirementById } from '../../lib/spec/requirements.js';
import { cellsOf, judgedCells, RULE_STATES, RULE_TABLE, scenarioOf, scenariosOf } from '../../lib/spec/rule-table.js';

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('the rule table', () => {
  it('has rows, and keys of its own', () => {
    assert.ok(RULE_TABLE.length > 50, `${RULE_TABLE.length} rows`);
    const keys = RULE_TABLE.map((row) => row.key);
    assert.deepEqual(
      keys.filter((key, i) => keys.indexOf(key) !== i),
      [],
    );
  });

  it('every row decides every payment service and every product, and nothing else', () => {
    for (const row of RULE_TABLE) {
      assert.deepEqual(sorted(Object.keys(row.services)), sorted(PAYMENT_SERVICES), `${row.key}: services`);
      assert.deepEqual(sorted(Object.keys(row.products)), sorted(PAYMENT_PRODUCTS), `${row.key}: products`);
    }
  });

  it('every cell is judged or says why not, in words', () => {
    for (const row of RULE_TABLE) {
      const cells = cellsOf(row);
      assert.equal(cells.length, PAYMENT_SERVICES.length * PAYMENT_PRODUCTS.length, row.key);
      for (const cell of cells)
        if (cell.reason !== undefined) assert.ok(cell.reason.length > 20, `${row.key} ${cell.service} ${cell.product}: "${cell.reason}"`);
    }
  });

  it('every judged cell names the scenario that judges it; a row that judges nothing names none', () => {
    for (const row of RULE_TABLE) {
      const judged = cellsOf(row).filter((cell) => cell.reason === undefined);
      if (judged.length === 0) assert.deepEqual(scenariosOf(row), [], `${row.key} judges nothing, yet names a scenario`);
      for (const cell of judged)
        assert.match(
          scenarioOf(row, cell) ?? '',
          SCENARIO_ID_PATTERN,
          `${row.key}: ${cell.service} of ${cell.product} is judged by no scenario`,
        );
    }
  });

  it('the cells a scenario goes through are those of its row and services', () => {
    for (const row of RULE_TABLE) {
      const all = scenariosOf(row).flatMap((scenario) => judgedCells(scenario).map((cell) => `${cell.service} ${cell.product}`));
      const judged = cellsOf(row)
        .filter((cell) => cell.reason === undefined)
        .map((cell) => `${cell.service} ${cell.product}`);
      assert.deepEqual(sorted(all), sorted(judged), row.key);
    }
  });

  it('every scenario a row names is named in the suites', () => {
    const suites = readdirSync(join(PACKAGE_ROOT, 'suites'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(PACKAGE_ROOT, 'suites', file), 'utf8'))
      .join('\n');
    // Written `scenario('ID', …)`, or as the key of a suite's table of changes (`'ID': …`), or made from the
    // key of their row (cellScenarios('KEY')); that each runs and declares the row's requirements is checked
    // on the listed suites by the gauntlet.
    const made = new Set(RULE_TABLE.filter((row) => suites.includes(`'${row.key}'`)).flatMap(scenariosOf));
    for (const row of RULE_TABLE) {
      for (const scenario of scenariosOf(row))
        assert.ok(suites.includes(`'${scenario}'`) || made.has(scenario), `${row.key}: no suite names scenario ${scenario}`);
    }
  });

  it('every requirement a row judges is in the catalogue', () => {
    for (const row of RULE_TABLE) for (const id of row.requirements) assert.ok(requirementById(id), `${row.key}: ${id}`);
  });

  it('every state has rows, and every row a known state', () => {
    const states = new Set(RULE_TABLE.map((row) => row.state));
    assert.deepEqual(sorted(states), sorted(Object.keys(RULE_STATES)));
  });

  it('the product aliases name products of the list', () => {
    for (const [alias, product] of Object.entries(PRODUCT_ALIASES)) {
      assert.ok(PAYMENT_PRODUCTS.includes(product), alias);
      assert.equal(paymentProductOf(alias), product);
    }
    for (const product of PAYMENT_PRODUCTS) assert.equal(paymentProductOf(product), product);
    assert.equal(paymentProductOf('moon-credit-transfers'), undefined);
  });
});
