/**
 * The preflight of a remote target, over the network: does the bank answer TLS with a certificate tls.ca
 * issued, does the interface answer under baseUrl, is the TPP certificate accepted, does the first SCA page
 * match a rule of `sca`, and do the capabilities the target declares answer. Every request goes through the
 * TPP client (and the SCA page through the HTTP SCA driver), under the target's safety policy: a production
 * target gets reads only, and no capability probe at all. Nothing here writes: the probes are GETs.
 *
 * `run` asks the short form before every run (TLS and one signed GET /v1/accounts: a base URL that does not
 * serve the interface stops the run as a configuration error, never a NON_CONFORMANT); `doctor` asks for all of it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as cheerio from 'cheerio';
import type { KeyAndCertificate } from '../pki/index.js';
import type { RunTarget } from '../targets/run-context.js';
import { DEFAULT_PROFILE } from '../targets/run-context.js';
import { diagnoseTls } from '../targets/preflight.js';
import { oneLine } from '../targets/target-files.js';
import { describedOperation } from '../targets/target-sandbox.js';
import type { TargetCapability } from '../targets/target-types.js';
import type { SandboxOperationName } from '../spec/sandbox-operations.js';
import { globToRegExp } from '../sca/flow.js';
import { openOverHttp } from '../sca/http-flow.js';
import {
  loadTppIdentity,
  newConnectionPool,
  ProductionRefusal,
  TargetUnreachableError,
  TppClient,
  type TppResponse,
} from '../tpp/index.js';

/** One thing the preflight looked at, and what it found. */
export interface Finding {
  /** What was checked: `tls`, `interface`, `tpp-certificate`, `sca`, `capability clock-control`… */
  check: string;
  /** `problem`: the configuration is wrong (exit 2); `unreachable`: the bank did not answer (exit 3). */
  outcome: 'ok' | 'warning' | 'problem' | 'unreachable' | 'skipped';
  /** The field of targets.yaml to fix, for a problem. */
  field?: string;
  message: string;
}

/** Where the CA of the target came from (its file, or inline), for the messages. */
export interface TargetChecksOptions {
  caSource?: string;
  /** All checks (doctor), or the short form before a run: TLS and the interface. */
  full: boolean;
}

/** A documentation address (RFC 5737) as the PSU's: the probes act as the suite's TPP does. */
const PSU_ADDRESS = '192.0.2.10';
/** Error codes by which a bank refuses the TPP's certificate or signature, rather than the request. */
const CERTIFICATE_REFUSAL = /^(CERTIFICATE_|SIGNATURE_|KID_|TPP_|ROLE_INVALID)/;

export async function checkTarget(target: RunTarget, options: TargetChecksOptions): Promise<Finding[]> {
  const field = (name: string) => `targets.${target.name}.${name}`;
  const tls = await diagnoseTls(
    target.baseUrl,
    target.caPem === undefined ? undefined : { pem: target.caPem, source: options.caSource ?? 'inline PEM' },
    target.timeouts.requestMs,
  );
  if (tls.outcome === 'unreachable')
    return [{ check: 'tls', outcome: 'unreachable', message: `target "${target.name}" unreachable at ${target.baseUrl}: ${tls.reason}` }];
  if (tls.outcome === 'untrusted') return [{ check: 'tls', outcome: 'problem', field: field(tls.field), message: tls.reason }];
  const leaf = tls.chain[0];
  const trusted = target.embedded ? "the run's test CA" : target.caPem === undefined ? 'a CA of the system store' : 'a CA of tls.ca';
  const findings: Finding[] = [
    {
      check: 'tls',
      outcome: 'ok',
      message: `TLS with ${target.baseUrl}: ${leaf ? oneLine(leaf.subject) : 'a certificate'}, issued by ${trusted}`,
    },
  ];

  const probe = new Probe(target);
  try {
    const answer = await probe.get('/v1/accounts');
    if (answer === undefined)
      return [
        ...findings,
        {
          check: 'interface',
          outcome: 'unreachable',
          message: `target "${target.name}" unreachable at ${target.baseUrl}: ${probe.lastError}`,
        },
      ];
    const served = await interfaceFinding(target, answer, probe);
    findings.push(served);
    if (served.outcome === 'problem') return findings;
    findings.push(certificateFinding(target, answer));
    if (!options.full) return findings;
    findings.push(await scaFinding(target, answer));
    findings.push(...(await capabilityFindings(target, probe)));
    return findings;
  } finally {
    await probe.close();
  }
}

/** Exit code of a preflight: 3 when the bank did not answer, 2 when the configuration is wrong, else 0. */
export function exitCodeOf(findings: readonly Finding[]): number {
  if (findings.some((finding) => finding.outcome === 'unreachable')) return 3;
  return findings.some((finding) => finding.outcome === 'problem') ? 2 : 0;
}

/** Signed GETs as the target's own TPP, with the headers every request of the suite carries. */
class Probe {
  readonly #client: TppClient;
  readonly #target: RunTarget;
  lastError = '';

  /** `as`: another TPP than the target's own. */
  constructor(target: RunTarget, baseUrl = target.baseUrl, as?: { certificatePem: string; privateKeyPem: string }) {
    this.#target = target;
    const profile = target.tpps[DEFAULT_PROFILE];
    if (!profile) throw new Error(`target "${target.name}" has no TPP to probe as`);
    this.#client = new TppClient({
      baseUrl,
      ...(target.caPem === undefined ? {} : { ca: target.caPem }),
      identity: loadTppIdentity(
        as ?? { certificatePem: profile.certificatePem, privateKeyPem: readFileSync(profile.privateKeyFile, 'utf8') },
      ),
      timeoutMs: target.timeouts.requestMs,
      safety: { environment: target.environment, sender: 'the preflight', paths: target.paths },
      defaultHeaders: { 'TPP-Redirect-URI': target.tpp.redirectUri, 'TPP-Session-ID': randomUUID(), 'PSU-IP-Address': PSU_ADDRESS },
    });
  }

  /** The answer, or undefined when there was none (lastError says why). */
  async get(path: string): Promise<TppResponse | undefined> {
    try {
      return await this.#client.get(path);
    } catch (error) {
      if (!(error instanceof TargetUnreachableError) && !(error instanceof ProductionRefusal)) throw error;
      this.lastError = error.message;
      return undefined;
    }
  }

  /** The same request under another base URL (a candidate root of the interface). */
  async at(baseUrl: string, path: string): Promise<TppResponse | undefined> {
    const other = new Probe(this.#target, baseUrl);
    try {
      return await other.get(path);
    } finally {
      await other.close();
    }
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

/** How an answer to a signed GET /v1/accounts reads: the interface (an answer in its terms), or something else. */
function servesInterface(answer: TppResponse): { serves: boolean; what: string } {
  const type = answer.headers['content-type'] ?? 'no Content-Type';
  const json = /\bjson\b/i.test(type);
  const what = `HTTP ${answer.status} (${type}${json ? `: ${answer.bodyText.slice(0, 120)}` : ''})`;
  if (answer.status === 404) return { serves: false, what };
  if (answer.status >= 300 && answer.status < 400)
    return { serves: false, what: `HTTP ${answer.status} to ${answer.headers.location ?? 'nowhere'}` };
  // An HTML page (a portal, a gateway's page) is no answer of the interface, whatever its status.
  return { serves: json || answer.status >= 500, what };
}

async function interfaceFinding(target: RunTarget, answer: TppResponse, probe: Probe): Promise<Finding> {
  const { serves, what } = servesInterface(answer);
  const request = `GET ${target.baseUrl}/v1/accounts`;
  if (!serves) {
    // The interface's root may be above the base URL given (…/api/psd2 where it answers at …/): the parents are tried.
    const url = new URL(target.baseUrl);
    const segments = url.pathname.split('/').filter(Boolean);
    let found: string | undefined;
    for (let keep = segments.length - 1; keep >= 0 && found === undefined; keep--) {
      const candidate = `${url.origin}${segments
        .slice(0, keep)
        .map((s) => `/${s}`)
        .join('')}`;
      const tried = await probe.at(candidate, '/v1/accounts');
      if (tried && servesInterface(tried).serves) found = candidate;
    }
    const hint = found
      ? `; the interface answers at ${found}: set baseUrl to it`
      : "; baseUrl is the root under which the interface's /v1/… paths live";
    return {
      check: 'interface',
      outcome: 'problem',
      field: `targets.${target.name}.baseUrl`,
      message: `${request} answers ${what}: the base URL does not serve the interface${hint}`,
    };
  }
  if (answer.status >= 500)
    return { check: 'interface', outcome: 'warning', message: `${request} answers ${what}: the bank fails; the run will judge it` };
  return {
    check: 'interface',
    outcome: 'ok',
    message: `${request} answers HTTP ${answer.status}${errorCodeOf(answer) ? ` ${errorCodeOf(answer)}` : ''}: the interface answers under baseUrl`,
  };
}

/** The error code of an answer: the specification's `code`, or the Berlin Group's first tppMessages code. */
function errorCodeOf(answer: TppResponse): string | undefined {
  try {
    const body = JSON.parse(answer.bodyText) as { code?: unknown; tppMessages?: { code?: unknown }[] };
    const code = body.code ?? body.tppMessages?.[0]?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an answer refuses the TPP's certificate or signature rather than the request: by its code, or, as
 * banks name it differently (a 400 BAD_REQUEST whose message names TPP-Signature-Certificate), by its text.
 * An answer that goes on to SCA (a scaRedirect) or serves (2xx) accepted them.
 */
function refusesCertificate(answer: TppResponse): boolean {
  if (answer.status < 400 || scaRedirectOf(answer) !== undefined) return false;
  const code = errorCodeOf(answer);
  return (code !== undefined && CERTIFICATE_REFUSAL.test(code)) || /certificate|signature/i.test(answer.bodyText);
}

/** The scaRedirect link of an answer, if it has one. */
function scaRedirectOf(answer: TppResponse): string | undefined {
  try {
    const link = (JSON.parse(answer.bodyText) as { _links?: Record<string, unknown> })._links?.scaRedirect;
    const href = typeof link === 'string' ? link : (link as { href?: unknown } | undefined)?.href;
    return typeof href === 'string' ? href : undefined;
  } catch {
    return undefined;
  }
}

function certificateFinding(target: RunTarget, answer: TppResponse): Finding {
  const code = errorCodeOf(answer);
  if (!refusesCertificate(answer)) {
    return {
      check: 'tpp-certificate',
      outcome: 'ok',
      message: `the bank accepted the TPP certificate and signature (HTTP ${answer.status}${code ? ` ${code}` : ''}, no certificate or signature error)`,
    };
  }
  // A remote target's test CA exists only to issue its generated TPP certificate.
  const generated = target.testCa !== undefined && !target.embedded;
  const hint = generated
    ? "; tpp.generate gives a certificate from the suite's own test CA, which only a bank that accepts any certificate, or trusts that CA, accepts: give tpp.certificate and tpp.privateKey"
    : ': give tpp.certificate and tpp.privateKey of a TPP the bank knows';
  return {
    check: 'tpp-certificate',
    outcome: 'problem',
    field: `targets.${target.name}.tpp.certificate`,
    message: `the bank refused the TPP certificate or its signature: HTTP ${answer.status} ${code} ${answer.bodyText.slice(0, 160)}${hint}`,
  };
}

/** The first SCA page: the scaRedirect of GET /v1/accounts opened as a PSU's browser would, matched against `sca`. */
async function scaFinding(target: RunTarget, answer: TppResponse): Promise<Finding> {
  const check = 'sca';
  const href = scaRedirectOf(answer);
  if (href === undefined)
    return {
      check,
      outcome: 'skipped',
      message: `GET /v1/accounts gave no scaRedirect (HTTP ${answer.status}): the first SCA page was not opened`,
    };
  const dispatcher = newConnectionPool(target.caPem);
  try {
    const page = await openOverHttp(
      {
        dispatcher,
        timeoutMs: target.timeouts.scaMs,
        redirectUri: target.tpp.redirectUri,
        safety: { environment: target.environment, sender: 'the preflight' },
      },
      href,
    );
    if ('redirect' in page)
      return { check, outcome: 'warning', message: `the scaRedirect ${href} led straight back to tpp.redirectUri: no SCA page to match` };
    const shown = cheerio.load(page.html);
    const byUrl = target.sca.filter((rule) => globToRegExp(rule.match).test(page.url));
    const rule = byUrl.find((candidate) => candidate.when === undefined || shown(candidate.when).length > 0);
    if (rule)
      return {
        check,
        outcome: 'ok',
        message: `the first SCA page ${page.url} (HTTP ${page.status}) matches the rule "${rule.match}"${rule.when ? ` when "${rule.when}"` : ''}`,
      };
    const title = shown('title').first().text().trim();
    const about = `the first SCA page ${page.url} (HTTP ${page.status}${title ? `, "${title}"` : ''})`;
    if (byUrl.length > 0 && target.scaDriver === 'browser') {
      return {
        check,
        outcome: 'warning',
        message: `${about} matches "${byUrl[0]?.match}" by its URL, but not what its rules' \`when\` asks in the page as served (a page drawn by script shows it only in a browser)`,
      };
    }
    const rules = target.sca.map((r) => `"${r.match}"${r.when ? ` when "${r.when}"` : ''}`).join(', ');
    return {
      check,
      outcome: 'problem',
      field: `targets.${target.name}.sca`,
      message: `${about} matches ${rules ? `no rule of sca (${rules})` : 'no rule: sca has none'}; a rule for it could start with match: "${globOf(page.url)}" (README: "Writing a bank's SCA steps")`,
    };
  } catch (error) {
    return { check, outcome: 'warning', message: `the first SCA page ${href} could not be opened: ${(error as Error).message}` };
  } finally {
    await dispatcher.close();
  }
}

/** A URL glob for a page: its path, with the segments that look like ids (a UUID, a number, a long token) as `*`. */
function globOf(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  return `**/${segments.map((segment) => (/^[\da-f-]{16,}$|^\d+$|^[\w-]{24,}$/i.test(segment) ? '*' : segment)).join('/')}`;
}

/**
 * What each declared capability rests on, checked without writing: a sandbox operation that reads is sent;
 * one that writes is not (it is named, to be checked by hand); a capability made of SCA steps or PSUs is read
 * from the target's own configuration. Never against production.
 */
async function capabilityFindings(target: RunTarget, probe: Probe): Promise<Finding[]> {
  if (target.capabilities.length === 0) return [];
  if (target.environment === 'production') {
    return [
      {
        check: 'capabilities',
        outcome: 'skipped',
        message: `not probed: a production target gets no sandbox call (declared: ${target.capabilities.join(', ')})`,
      },
    ];
  }
  const findings: Finding[] = [];
  for (const capability of target.capabilities) findings.push(await capabilityFinding(target, capability, probe));
  return findings;
}

const SANDBOX_OPERATIONS_OF: Partial<Record<TargetCapability, readonly SandboxOperationName[]>> = {
  'sandbox-reset': ['initialize'],
  'sandbox-mock-data': ['listCustomers', 'createCustomer', 'createAccount'],
  'clock-control': ['freezeClock', 'shiftClock', 'resetClock'],
};

async function capabilityFinding(target: RunTarget, capability: TargetCapability, probe: Probe): Promise<Finding> {
  const check = `capability ${capability}`;
  const field = `targets.${target.name}.capabilities`;
  const variants = Object.keys(target.scaVariants);
  switch (capability) {
    case 'corporate-psu':
      return Object.values(target.psus).some((psu) => psu.context === 'CORPORATE')
        ? { check, outcome: 'ok', message: 'a PSU of psus has context CORPORATE' }
        : {
            check,
            outcome: 'problem',
            field: `targets.${target.name}.psus`,
            message: 'declared, but no PSU of psus has context: CORPORATE (the corporate scenarios log in as one)',
          };
    case 'consent-selection':
    case 'sca-abort': {
      const needed = capability === 'sca-abort' ? ['cancel-at-consent'] : ['first-account-only', 'confirm-as-offered'];
      const missing = needed.filter((name) => !variants.includes(name));
      return missing.length === 0
        ? { check, outcome: 'ok', message: `scaVariants has ${needed.join(', ')}` }
        : {
            check,
            outcome: 'warning',
            field: `targets.${target.name}.scaVariants`,
            message: `declared, but scaVariants lacks ${missing.join(', ')}: the scenarios that ask for it are NOT_TESTABLE`,
          };
    }
    case 'test-ca-trusted':
      return untrustedCertificateFinding(target, check);
    case 'second-tpp':
      return target.tpps.second
        ? { check, outcome: 'ok', message: 'a second TPP certificate is configured' }
        : { check, outcome: 'problem', field: `targets.${target.name}.tpp.second`, message: 'declared, but there is no second TPP' };
    default:
      break;
  }
  const operations = SANDBOX_OPERATIONS_OF[capability];
  if (operations === undefined)
    return { check, outcome: 'skipped', message: 'declared; nothing to probe without writing (checked by its scenarios)' };
  const described = operations.flatMap((name) => {
    const operation = describedOperation(target.sandbox, name);
    return operation ? [{ name, ...operation }] : [];
  });
  if (described.length === 0) {
    return {
      check,
      outcome: 'problem',
      field: `targets.${target.name}.sandbox.operations`,
      message: `declared, but the target describes none of its operations (${operations.join(', ')}): every scenario that needs it is NOT_TESTABLE`,
    };
  }
  const read = described.find((operation) => operation.method === 'GET' && !/\{\w+\}/.test(operation.path));
  if (read === undefined) {
    return {
      check,
      outcome: 'skipped',
      message: `declared; not probed, its operations write (${described.map((o) => `${o.name}: ${o.method} ${o.path}`).join(', ')})`,
    };
  }
  const answer = await probe.get(read.path);
  if (answer === undefined)
    return { check, outcome: 'warning', field, message: `GET ${read.path} (${read.name}) had no answer: ${probe.lastError}` };
  if (answer.status >= 200 && answer.status < 300)
    return { check, outcome: 'ok', message: `GET ${read.path} (${read.name}) answers HTTP ${answer.status}` };
  return {
    check,
    outcome: answer.status === 404 ? 'problem' : 'warning',
    field,
    message: `declared, but GET ${read.path} (${read.name}) answers HTTP ${answer.status}${errorCodeOf(answer) ? ` ${errorCodeOf(answer)}` : ''}: the bank does not offer it there (describe it in sandbox.operations, or remove the capability: its scenarios would FAIL or stop)`,
  };
}

/**
 * test-ca-trusted: the bank checks TPP certificates as production does. A certificate from a CA made here, which
 * no bank can trust, signs one GET /v1/accounts: a bank that accepts it checks nothing, and the scenarios that
 * expect untrusted, expired or role-restricted certificates refused would FAIL it for what its sandbox allows.
 * A bank that refuses it must trust the CA the certificate variants come from: the target's tpp.testCa (a bank
 * of its own cannot trust a CA made for the run), which a certificate of its own must pass.
 */
async function untrustedCertificateFinding(target: RunTarget, check: string): Promise<Finding> {
  const { generateCertificateAuthority, generateTppCertificate, ALL_PSD2_ROLES } = await import('../pki/index.js');
  const stranger = generateCertificateAuthority({
    commonName: 'xs2a-conformance doctor: a CA no bank trusts',
    organizationName: 'xs2a-conformance',
    countryName: 'NO',
  });
  const tppOf = (issuer: KeyAndCertificate) =>
    generateTppCertificate(issuer, {
      organizationName: 'xs2a-conformance doctor TPP',
      organizationIdentifier: 'PSDNO-FSA-DOCTOR',
      countryName: 'NO',
      roles: [...ALL_PSD2_ROLES],
    });
  const answer = await accountsReadAs(target, tppOf(stranger));
  if (typeof answer === 'string')
    return { check, outcome: 'warning', message: `GET /v1/accounts signed by an untrusted TPP had no answer: ${answer}` };
  const code = errorCodeOf(answer);
  if (!refusesCertificate(answer))
    return {
      check,
      outcome: 'problem',
      field: `targets.${target.name}.capabilities`,
      message: `declared, but the bank accepted a TPP certificate from a CA no one trusts (HTTP ${answer.status}${code ? ` ${code}` : ''}): it does not check TPP certificates as production does, and the certificate scenarios would FAIL; remove test-ca-trusted`,
    };
  const refused = `a TPP certificate from an unknown CA is refused (HTTP ${answer.status}${code ? ` ${code}` : ''}), as production refuses one`;
  if (target.embedded) return { check, outcome: 'ok', message: refused };
  const field = `targets.${target.name}.tpp.testCa`;
  if (target.testCa?.given !== true)
    return {
      check,
      outcome: 'problem',
      field,
      message: `${refused}, but tpp.testCa names no CA it trusts: the expired and role-restricted certificates would come from a CA made for the run, which it cannot trust either; give the CA it trusts for test TPP certificates, with its key`,
    };
  const testCa = { certificatePem: target.testCa.certificatePem, privateKeyPem: readFileSync(target.testCa.privateKeyFile, 'utf8') };
  const own = await accountsReadAs(target, tppOf(testCa));
  if (typeof own === 'string')
    return { check, outcome: 'warning', message: `${refused}; GET /v1/accounts signed by a TPP of tpp.testCa had no answer: ${own}` };
  if (refusesCertificate(own))
    return {
      check,
      outcome: 'problem',
      field,
      message: `${refused}, and so is one from tpp.testCa (HTTP ${own.status}${errorCodeOf(own) ? ` ${errorCodeOf(own)}` : ''}): the bank does not trust that CA, and the expired and role-restricted certificates would be refused for their issuer, not for what the scenarios judge`,
    };
  return { check, outcome: 'ok', message: `${refused}, and one from tpp.testCa is taken (HTTP ${own.status})` };
}

/** One GET /v1/accounts signed by this TPP: the answer, or why there was none. */
async function accountsReadAs(target: RunTarget, as: KeyAndCertificate): Promise<TppResponse | string> {
  const probe = new Probe(target, target.baseUrl, as);
  try {
    return (await probe.get('/v1/accounts')) ?? probe.lastError;
  } finally {
    await probe.close();
  }
}
