/** JSON Schema of targets.yaml. Every rejection names the field, so a broken file is fixed in one go. */
import { SANDBOX_OPERATION_NAMES } from '../spec/sandbox-operations.js';
import { ENVIRONMENTS, SCA_DRIVERS, TARGET_CAPABILITIES } from './target-types.js';

const selector = { type: 'string', minLength: 1 };

const scaStep = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  properties: {
    fill: {
      type: 'object',
      additionalProperties: false,
      required: ['selector', 'value'],
      properties: { selector, value: { type: 'string' } },
    },
    click: { type: 'object', additionalProperties: false, required: ['selector'], properties: { selector } },
    check: {
      type: 'object',
      additionalProperties: false,
      required: ['selector'],
      properties: { selector, all: { type: 'boolean' } },
    },
    uncheck: {
      type: 'object',
      additionalProperties: false,
      required: ['selector'],
      properties: { selector, all: { type: 'boolean' } },
    },
    select: {
      type: 'object',
      additionalProperties: false,
      required: ['selector', 'value'],
      properties: { selector, value: { type: 'string' } },
    },
    wait: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { selector, url: { type: 'string', minLength: 1 } },
    },
    read: {
      type: 'object',
      additionalProperties: false,
      required: ['selector', 'as'],
      properties: { selector, as: { type: 'string', minLength: 1 } },
    },
  },
} as const;

const scaRules = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['match', 'steps'],
    properties: {
      match: { type: 'string', minLength: 1 },
      when: { type: 'string', minLength: 1 },
      optional: { type: 'boolean' },
      steps: { type: 'array', minItems: 1, items: scaStep },
    },
  },
} as const;

const target = {
  type: 'object',
  additionalProperties: false,
  required: ['environment'],
  properties: {
    description: { type: 'string' },
    embedded: {
      oneOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            faults: { type: 'array', items: { type: 'string', minLength: 1 } },
            // Legal readings of the specification the embedded bank takes (reference/switches.ts); unknown names are refused at start.
            variants: { type: 'array', items: { type: 'string', minLength: 1 } },
            // The reference bank's SCA page set (reference/sca-pages/named-page-sets.ts); an unknown name is refused at start.
            pages: { type: 'string', minLength: 1 },
          },
        },
      ],
    },
    baseUrl: { type: 'string', pattern: '^(https://|\\$\\{)' },
    environment: { enum: [...ENVIRONMENTS] },
    tls: { type: 'object', additionalProperties: false, properties: { ca: { type: 'string', minLength: 1 } } },
    tpp: {
      type: 'object',
      additionalProperties: false,
      required: ['redirectUri'],
      properties: {
        certificate: { type: 'string', minLength: 1 },
        privateKey: { type: 'string', minLength: 1 },
        generate: { type: 'boolean' },
        organizationIdentifier: { type: 'string', minLength: 1 },
        organizationName: { type: 'string', minLength: 1 },
        redirectUri: { type: 'string', pattern: '^(https?://|\\$\\{)' },
        second: {
          type: 'object',
          additionalProperties: false,
          required: ['certificate', 'privateKey'],
          properties: { certificate: { type: 'string', minLength: 1 }, privateKey: { type: 'string', minLength: 1 } },
        },
        testCa: {
          type: 'object',
          additionalProperties: false,
          required: ['certificate', 'privateKey'],
          properties: { certificate: { type: 'string', minLength: 1 }, privateKey: { type: 'string', minLength: 1 } },
        },
      },
    },
    psus: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          nationalId: { type: 'string', minLength: 1 },
          context: { enum: ['PRIVATE', 'CORPORATE'] },
          agreement: { type: 'string', minLength: 1 },
        },
      },
    },
    sca: scaRules,
    scaDriver: { enum: [...SCA_DRIVERS] },
    scaVariants: { type: 'object', additionalProperties: scaRules },
    capabilities: { type: 'array', uniqueItems: true, items: { enum: [...TARGET_CAPABILITIES] } },
    paths: { type: 'object', additionalProperties: { type: 'string', pattern: '^/' } },
    sandbox: {
      type: 'object',
      additionalProperties: false,
      properties: {
        // Which clock judges a request's Date once the sandbox clock is moved: the bank's (moved) or the real one.
        dates: { enum: ['bank-clock', 'real-time'] },
        operations: {
          type: 'object',
          propertyNames: { enum: [...SANDBOX_OPERATION_NAMES] },
          additionalProperties: {
            // null: the target has no such operation (a default it lacks).
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                additionalProperties: false,
                required: ['method', 'path'],
                properties: {
                  method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
                  path: { type: 'string', pattern: '^/' },
                  body: {},
                  idAt: { type: 'string', minLength: 1 },
                },
              },
            ],
          },
        },
      },
    },
    deviations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['requirement', 'reason'],
        properties: {
          requirement: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,3}$' },
          reason: { type: 'string', minLength: 1 },
          until: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        },
      },
    },
    concurrency: { type: 'integer', minimum: 1, maximum: 64 },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        requestMs: { type: 'integer', minimum: 100 },
        scaMs: { type: 'integer', minimum: 1000 },
      },
    },
  },
} as const;

export const TARGETS_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['targets'],
  properties: {
    targets: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' },
      additionalProperties: target,
    },
  },
} as const;
