/**
 * The requirement catalogue: every normative statement of the Open Banking Interface Specification, with a
 * stable id (area prefix and number, never reused), its section, a level, a one-line statement in the
 * project's own words, how it is tested, and for an ambiguous rule the interpretation chosen.
 *
 * Plain data: nothing here reads a file at run time. The entries live in lib/spec/requirements/<area>-requirements.ts.
 */
import { ADR } from './requirements/adr-requirements.js';
import { AIS } from './requirements/ais-requirements.js';
import { BSK } from './requirements/bsk-requirements.js';
import { END } from './requirements/end-requirements.js';
import { ERR } from './requirements/err-requirements.js';
import { EVT } from './requirements/evt-requirements.js';
import { FMT } from './requirements/fmt-requirements.js';
import { GEN } from './requirements/gen-requirements.js';
import { HDR } from './requirements/hdr-requirements.js';
import { LIM } from './requirements/lim-requirements.js';
import { MSG } from './requirements/msg-requirements.js';
import { PAG } from './requirements/pag-requirements.js';
import { PAY } from './requirements/pay-requirements.js';
import { PSU } from './requirements/psu-requirements.js';
import { SBX } from './requirements/sbx-requirements.js';
import { SCA } from './requirements/sca-requirements.js';
import { SES } from './requirements/ses-requirements.js';
import { SIG } from './requirements/sig-requirements.js';
import { STA } from './requirements/sta-requirements.js';
import { TPP } from './requirements/tpp-requirements.js';
import { VER } from './requirements/ver-requirements.js';
import { TPP_AREA, type Requirement } from './requirements/requirement-types.js';

export {
  AREAS,
  AREA_PREFIXES,
  BASES,
  BELOW_SERVER_ERROR_STATUSES,
  CAPABILITIES,
  CLIENT_ERROR_STATUSES,
  LEVELS,
  type Area,
  type Requirement,
  type RequirementLevel,
} from './requirements/requirement-types.js';

/** The id pattern: area prefix, a dash, two or three digits. */
export const REQUIREMENT_ID_PATTERN = /^[A-Z]{3}-\d{2,3}$/;

/** All entries, area by area: the bank's, then the TPP's. */
export const REQUIREMENTS: readonly Requirement[] = Object.freeze([
  ...GEN,
  ...FMT,
  ...SBX,
  ...PAY,
  ...ADR,
  ...MSG,
  ...BSK,
  ...AIS,
  ...PSU,
  ...STA,
  ...SES,
  ...END,
  ...HDR,
  ...SIG,
  ...SCA,
  ...EVT,
  ...ERR,
  ...LIM,
  ...PAG,
  ...VER,
  ...TPP,
]);

/** The rules a bank is judged on: what the suite's scenarios and invariants check, and its report lists. */
export const BANK_REQUIREMENTS: readonly Requirement[] = Object.freeze(REQUIREMENTS.filter((requirement) => requirement.area !== TPP_AREA));

/** The rules a TPP is judged on, from its traffic (lib/tpp-judge): the judging sandbox, proxy and audit. */
export const TPP_REQUIREMENTS: readonly Requirement[] = Object.freeze(REQUIREMENTS.filter((requirement) => requirement.area === TPP_AREA));

const BY_ID = new Map(REQUIREMENTS.map((requirement) => [requirement.id, requirement]));

export function requirementById(id: string): Requirement | undefined {
  return BY_ID.get(id.startsWith('@') ? id.slice(1) : id);
}

/** The kind of testedBy: `automated`, `needs-capability` or `manual`. */
export function testedByKind(requirement: Pick<Requirement, 'testedBy'>): 'automated' | 'needs-capability' | 'manual' {
  if (requirement.testedBy === 'automated') return 'automated';
  return requirement.testedBy.startsWith('needs-capability:') ? 'needs-capability' : 'manual';
}
