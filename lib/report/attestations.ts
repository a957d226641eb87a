/**
 * Attestations: a person's verdict on a requirement no scenario can judge (production-only, device-only,
 * organisational rules), taken from a YAML file by `run --attestations FILE`:
 *
 *   attestations:
 *     - requirement: SCA-23
 *       verdict: PASS                     # PASS or FAIL
 *       reviewer: Kari Nordmann
 *       date: 2026-11-20
 *       evidence: QA-1432 (screen recording of the app's biometric prompt)
 *       note: checked on the release candidate 1.24.0-rc2
 *
 * A PASS makes the requirement ATTESTED, a FAIL makes it FAIL (WARNING below MUST); both carry the
 * reviewer's name, and the report shows them apart from the automated verdicts. An attestation never
 * overrides what a scenario of the run judged.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import { requirementById } from '../spec/requirements.js';
import { ConfigError } from '../targets/config-error.js';
import type { Attestation, RequirementRecord } from './results-types.js';

const ATTESTATIONS_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['attestations'],
  properties: {
    attestations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['requirement', 'verdict', 'reviewer', 'date', 'evidence'],
        properties: {
          requirement: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,3}$' },
          verdict: { enum: ['PASS', 'FAIL'] },
          reviewer: { type: 'string', minLength: 1 },
          date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          evidence: { type: 'string', minLength: 1 },
          note: { type: 'string' },
        },
      },
    },
  },
} as const;

let validator: ValidateFunction<{ attestations: Attestation[] }> | undefined;

/** Compiled at the first file read, not when the module loads: the reporter of every run imports this module. */
function attestationsValidator(): ValidateFunction<{ attestations: Attestation[] }> {
  validator ??= new Ajv({ allErrors: false, strict: true }).compile<{ attestations: Attestation[] }>(ATTESTATIONS_FILE_SCHEMA);
  return validator;
}

/** Reads and checks an attestations file; every problem is a ConfigError naming the entry and field (exit 2). */
export function loadAttestations(path: string, today = new Date()): Attestation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--attestations ${path}`, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseAttestations(text, path, today);
}

export function parseAttestations(text: string, sourceName: string, today = new Date()): Attestation[] {
  // YAML reads an unquoted 2026-11-20 as a string here (the core schema has no timestamps).
  const document = parseDocument(text);
  const syntaxError = document.errors[0];
  if (syntaxError) throw new ConfigError(sourceName, `not valid YAML: ${syntaxError.message.split('\n')[0]}`);
  const data: unknown = document.toJS();
  const validate = attestationsValidator();
  if (!validate(data)) {
    const error = validate.errors?.[0];
    const field = (error?.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, '');
    const detail =
      error?.keyword === 'additionalProperties'
        ? `unknown field "${String(error.params.additionalProperty)}"`
        : (error?.message ?? 'invalid');
    throw new ConfigError(`${sourceName}: ${field || '(top level)'}`, detail);
  }
  const seen = new Set<string>();
  data.attestations.forEach((attestation, i) => {
    const field = `${sourceName}: attestations[${i}]`;
    const requirement = requirementById(attestation.requirement);
    if (!requirement) throw new ConfigError(`${field}.requirement`, `${attestation.requirement} is not in the requirement catalogue`);
    if (requirement.testedBy === 'automated') {
      throw new ConfigError(
        `${field}.requirement`,
        `${attestation.requirement} is judged by the suite's scenarios; only manual or capability-gated requirements can be attested`,
      );
    }
    if (seen.has(attestation.requirement)) throw new ConfigError(`${field}.requirement`, `${attestation.requirement} is attested twice`);
    seen.add(attestation.requirement);
    if (Number.isNaN(Date.parse(`${attestation.date}T00:00:00Z`)))
      throw new ConfigError(`${field}.date`, `${attestation.date} is not a date`);
    if (Date.parse(`${attestation.date}T00:00:00Z`) > today.getTime())
      throw new ConfigError(`${field}.date`, `${attestation.date} is in the future`);
  });
  return data.attestations;
}

/** Statuses an attestation may settle: the run could not judge the requirement itself. */
const ATTESTABLE = new Set(['MANUAL', 'NOT_COVERED', 'OUT_OF_SCOPE', 'NOT_TESTABLE']);

/**
 * The requirement records with the attestations applied: ATTESTED or FAIL/WARNING where the run could not
 * judge; where a scenario of the run did judge the requirement, its verdict stands and the attestation is
 * only shown beside it.
 */
export function applyAttestations(requirements: readonly RequirementRecord[], attestations: readonly Attestation[]): RequirementRecord[] {
  const byId = new Map(attestations.map((a) => [a.requirement, a]));
  return requirements.map((record) => {
    const attestation = byId.get(record.id);
    if (!attestation) return record;
    if (!ATTESTABLE.has(record.status)) return { ...record, attestation };
    const by = `attested by ${attestation.reviewer} on ${attestation.date} (evidence: ${attestation.evidence})`;
    if (attestation.verdict === 'PASS') return { ...record, status: 'ATTESTED', reason: by, attestation };
    const status = record.level === 'MUST' ? 'FAIL' : 'WARNING';
    return { ...record, status, reason: `failed, ${by}${attestation.note ? `: ${attestation.note}` : ''}`, attestation };
  });
}
