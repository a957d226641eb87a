/**
 * Playwright configuration of the gauntlet (`run --gauntlet PLAN`, the project's own tests in test/gauntlet; not
 * in the package): the conformance run's, with one project per kind of case in the plan (census, fault,
 * variant). scenario() registers a scenario's run under each case that names it, tagged with the case's kind;
 * each project keeps its kind's runs, so the scenarios' own fault-free tests are left out.
 *
 * A project per kind, not per case: Playwright never lends a worker to another project, so a project per case
 * starts workers for each of hundreds of cases (a census took 448 s so, against 69 s; docs/measurements.md).
 * Playwright queues the projects' runs in this order, so a worker changes project at most once per kind.
 */
import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';
import { gauntletTagOf } from './lib/fixtures/scenario-tags.js';
import { readRunContext, type GauntletCase } from './lib/targets/run-context.js';

const KINDS: GauntletCase['kind'][] = ['census', 'fault', 'variant'];

const plan = readRunContext()?.gauntlet;
if (!plan) throw new Error('playwright.gauntlet.config.ts runs a gauntlet plan: start it with `xs2a-conformance run --gauntlet PLAN`');
const kinds = KINDS.filter((kind) => plan.cases.some((gauntletCase) => gauntletCase.kind === kind));

export default defineConfig({
  ...base,
  projects: kinds.map((kind) => ({ name: kind, grep: new RegExp(gauntletTagOf(kind)) })),
});
