// Robustness probes: property-based malformed requests (fast-check, with shrinking)
// to every operation of the interface. Whatever is wrong with a request, the answer
// must be a 4xx with the specification's error body (or a success): never a 5xx, a
// hang or a dropped connection. A failing probe is shrunk to the smallest request
// that still fails, and that request is the evidence.
import fc from 'fast-check';
import { OPERATIONS } from '../spec/operations.js';
import { DEFAULT_PATHS, resolvePath, type PathName } from '../spec/paths.js';
import type { ProbeOutcome, ProbeRequest, ProbeRun } from './probe-request.js';
import type { SigningDefect } from './signing-defects.js';

/**
 * Operations the probes reach: the interface's own, and the sandbox operation that takes a body. Never the sandbox reset or clock (global
 * state).
 */
const PROBED: readonly { method: string; path: PathName }[] = [...OPERATIONS, { method: 'POST', path: 'sandboxCustomers' }];

const HEADERS_THE_CLIENT_SENDS = [
  'X-Request-ID',
  'Date',
  'Digest',
  'TPP-Signature-Certificate',
  'Signature',
  'TPP-Session-ID',
  'TPP-Redirect-URI',
  'PSU-IP-Address',
  'Content-Type',
  'Accept',
];
const HEADERS_WITH_A_FORM = [
  'PSU-ID',
  'PSU-Corporate-ID',
  'PSU-Context',
  'PSU-IP-Address',
  'PSU-Device-ID',
  'PSU-HTTP-Method',
  'X-PSU-IDENTITY',
  'TPP-Redirect-Preferred',
  'x-accept-fix',
  'Content-Type',
  'Accept',
  'Date',
  'Digest',
];

/** Path parameter values: ordinary ids, and the ones that go looking for trouble. */
const pathParameter = fc.oneof(
  fc.uuid(),
  fc.constantFrom('..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '%ff%fe', '%F0%9F%98%80', 'a'.repeat(2048), '-1', 'null', '{id}', '%2F'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
);

/** Placeholders the interface gives a closed set of values: mostly a real one, so the probe reaches the operation. */
const PLACEHOLDER_VALUES: Readonly<Record<string, fc.Arbitrary<string>>> = {
  paymentService: fc.constantFrom('payments', 'bulk-payments', 'periodic-payments'),
  paymentProduct: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'sepa-credit-transfers',
        'domestic-norway-credit-transfers',
        'norwegian-cross-border-credit-transfers',
        'norwegian-domestic-payment-to-self',
      ),
    },
    { weight: 1, arbitrary: pathParameter },
  ),
};

/** A header value that is wrong for its header, or wrong for any header (not UTF-8, huge). */
const headerValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '-1',
    '1e309',
    'true',
    'PRIVATE,CORPORATE',
    '999.999.999.999',
    '\xff\xfe\xfd',
    'Ã©\x80',
    'a'.repeat(4096),
    '=?utf-8?B?!!!?=',
  ),
  fc.string({ maxLength: 60 }).map((text) => text.replace(/[\r\n\0]/g, '')),
  fc.uuid(),
);

/** A value nested `depth` times in arrays or objects. */
function nested(depth: number, asObject: boolean): string {
  return asObject ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** Bodies: wrong types, missing and duplicated fields, deep nesting, size, bytes that are not UTF-8 or not JSON. */
const body: fc.Arbitrary<{ bytes: Buffer; defect: string }> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .jsonValue({ maxDepth: 4 })
      .map((value) => ({ bytes: Buffer.from(JSON.stringify(value) ?? 'null'), defect: 'a JSON value of an arbitrary shape' })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          customerNumber: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
          name: fc.oneof(fc.string(), fc.array(fc.string()), fc.boolean()),
          type: fc.oneof(fc.string(), fc.integer()),
        },
        { requiredKeys: [] },
      )
      .map((value) => ({ bytes: Buffer.from(JSON.stringify(value)), defect: 'fields missing or of the wrong type' })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      {
        bytes: Buffer.from('{"customerNumber":"12345678901","customerNumber":"1","name":"A","type":"private"}'),
        defect: 'a duplicated field',
      },
      { bytes: Buffer.from('{"name": "unterminated'), defect: 'invalid JSON' },
      { bytes: Buffer.from('<customer><name>X</name></customer>'), defect: 'an XML body' },
      { bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), defect: 'a body that is not UTF-8' },
      { bytes: Buffer.from('{"name":"\u{1F600}"}'), defect: 'an emoji' },
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1_000, max: 100_000 })
      .chain((depth) => fc.boolean().map((asObject) => ({ bytes: Buffer.from(nested(depth, asObject)), defect: `nested ${depth} deep` }))),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 2 })
      .map((mib) => ({ bytes: Buffer.alloc(mib * 1024 * 1024 + 1, 0x61), defect: `${mib} MiB of letters` })),
  },
);

const signingDefect: fc.Arbitrary<SigningDefect> = fc.oneof(
  fc.constantFrom<SigningDefect>(
    { kind: 'no-signature' },
    { kind: 'no-digest' },
    { kind: 'no-date' },
    { kind: 'no-certificate' },
    { kind: 'altered-signature' },
    { kind: 'wrong-digest' },
    { kind: 'headers-part-reordered' },
    { kind: 'body-changed-after-signing' },
  ),
  fc
    .constantFrom('keyId', 'algorithm', 'headers', 'signature')
    .map((part): SigningDefect => ({ kind: 'signature-without-part', part: part as 'keyId' })),
  fc.string({ maxLength: 40 }).map((value): SigningDefect => ({ kind: 'key-id', value: value.replace(/"/g, '') })),
);

/** Every defect a probe can carry; each probe draws a few. */
export function malformedRequest(pathOverrides: Readonly<Record<string, string>> = {}): fc.Arbitrary<ProbeRequest> {
  const target = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...PROBED).chain((operation) => {
        const names = [...DEFAULT_PATHS[operation.path].matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
        return fc
          .tuple(fc.constant(operation), fc.tuple(...names.map((name) => PLACEHOLDER_VALUES[name] ?? pathParameter)))
          .map(([op, values]) => {
            const parameters = Object.fromEntries(names.map((name, i) => [name, `\u0000${i}`]));
            // Values are placed after resolution, already encoded, so traversal sequences reach the server as sent.
            const template = resolvePath(pathOverrides, op.path, parameters);
            const path = values.reduce<string>((p, value, i) => p.replace(encodeURIComponent(`\u0000${i}`), value), template);
            return { method: op.method, path };
          });
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), pathParameter)
        .map(([method, segment]) => ({ method, path: `/v1/${segment}` })),
    },
  );
  const method = fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), { freq: 4 });
  return fc
    .record({
      target,
      otherMethod: method,
      omitted: fc.subarray(HEADERS_THE_CLIENT_SENDS, { maxLength: 3 }),
      wrongHeaders: fc.array(fc.tuple(fc.constantFrom(...HEADERS_WITH_A_FORM), headerValue), { maxLength: 3 }),
      duplicated: fc.subarray(['X-Request-ID', 'TPP-Session-ID', 'PSU-ID', 'Content-Type'], { maxLength: 2 }),
      body: fc.option(body, { freq: 2 }),
      signingDefects: fc.array(signingDefect, { maxLength: 2 }),
    })
    .map(({ target: t, otherMethod, omitted, wrongHeaders, duplicated, body: b, signingDefects }) => {
      const methodSent = otherMethod ?? t.method;
      const headers: Record<string, string> = Object.fromEntries(wrongHeaders);
      // A repeated header arrives as one field whose values are comma-joined (RFC 9110 5.3).
      for (const name of duplicated) headers[name] = `${headers[name] ?? 'first'}, second`;
      if (b && headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/json';
      const defects = [
        ...(otherMethod ? [`method ${otherMethod}`] : []),
        ...omitted.map((name) => `no ${name}`),
        ...wrongHeaders.map(
          ([name, value]) => `${name}: ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…(${value.length})` : value)}`,
        ),
        ...duplicated.map((name) => `${name} twice`),
        ...(b ? [b.defect] : []),
        ...signingDefects.map((defect) => `signing defect ${JSON.stringify(defect)}`),
      ];
      return {
        method: methodSent,
        path: t.path,
        headers,
        omitHeaders: omitted,
        ...(b ? { rawBody: b.bytes } : {}),
        signingDefects,
        defects,
      };
    });
}

/** Why an outcome breaks the rules, or undefined when it keeps them. */
export function probeFailure(outcome: ProbeOutcome): string | undefined {
  if ('error' in outcome) return `no answer: ${outcome.error}`;
  if (outcome.status >= 500) return `HTTP ${outcome.status}`;
  if (outcome.status < 400) return undefined;
  if (!/^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(outcome.contentType ?? ''))
    return `HTTP ${outcome.status} with Content-Type ${outcome.contentType ?? '(none)'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(outcome.body);
  } catch {
    return `HTTP ${outcome.status} with a body that is not JSON`;
  }
  const error = parsed as Record<string, unknown> | null;
  if (error !== null && typeof error === 'object' && Array.isArray(error['_links']) === false && typeof error['_links'] === 'object')
    return undefined; // 401 asking for SCA
  const bodyOk =
    error !== null &&
    typeof error === 'object' &&
    typeof error['id'] === 'string' &&
    typeof error['system'] === 'string' &&
    error['status'] === outcome.status &&
    typeof error['code'] === 'string';
  return bodyOk
    ? undefined
    : `HTTP ${outcome.status} without the error body {id, system, status, code, message}: ${outcome.body.slice(0, 200)}`;
}

/**
 * Sends `runs` probes (seeded, so a run can be repeated) and shrinks the first failure. When `send` throws (the
 * target is gone: the run cannot judge), nothing more is sent and the error is thrown once the run is over,
 * rather than taken for a failure of the probe (fast-check counts an error in a property as one).
 */
export async function runProbes(
  send: (request: ProbeRequest) => Promise<ProbeOutcome>,
  options: {
    runs: number;
    seed: number;
    pathOverrides?: Readonly<Record<string, string>>;
    /** Why an outcome fails the property (probeFailure by default: every rule a probe's answer keeps). */
    failureOf?: (outcome: ProbeOutcome) => string | undefined;
    /** Stop starting new probes after this long (a slow target gets fewer probes, not a timed-out scenario). */
    timeLimitMs?: number;
  },
): Promise<ProbeRun> {
  const failures = new WeakMap<ProbeRequest, string>();
  const failureOf = options.failureOf ?? probeFailure;
  let interruption: { error: unknown } | undefined;
  const property = fc.asyncProperty(malformedRequest(options.pathOverrides), async (request) => {
    if (interruption) return true;
    let outcome: ProbeOutcome;
    try {
      outcome = await send(request);
    } catch (error) {
      interruption = { error };
      return true;
    }
    const failure = failureOf(outcome);
    if (failure !== undefined) failures.set(request, failure);
    return failure === undefined;
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    endOnFailure: false,
    ...(options.timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false }),
  });
  if (interruption) throw interruption.error;
  const [request] = details.counterexample ?? [];
  if (!details.failed || request === undefined) return { runs: details.numRuns };
  return {
    runs: details.numRuns,
    counterexample: { request, failure: failures.get(request) ?? 'failed', shrinks: details.numShrinks, seed: details.seed },
  };
}
