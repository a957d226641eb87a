/**
 * Provenance of a run: what produced it (tool, commit, suite files, catalogue and specification versions,
 * Node, Playwright and Chromium), against what (the target as declared, its capabilities and deviations), as
 * whom (the TPP certificate's subject), and how (probe seed, masking, arguments). Read by an auditor from
 * results.json; nothing in it is secret: keys are removed and identities masked.
 */
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../sca/browser.js';
import { REQUIREMENTS } from '../spec/requirements.js';
import { SPECIFICATION } from '../spec/spec-version.js';
import { DEFAULT_PROFILE, type RunContext } from '../targets/run-context.js';
import { probeSettings } from '../tpp/probe-settings.js';
import type { Masker } from './mask.js';
import { deviationFor } from './verdict.js';
import type { Provenance } from './results-types.js';

/** The tool's root (it holds package.json, the suites and .git): two folders up from lib/report. */
const TOOL_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `masker`: the run's own (the reporter's), so that a PSU has the same tag here as in the rest of the report. */
export function provenanceOf(context: RunContext, suiteFiles: readonly string[], finishedAt: Date, masker: Masker): Provenance {
  const target = context.target;
  const tpp = target.tpps[DEFAULT_PROFILE];
  return {
    ...toolProvenance(context.tool),
    suiteFiles: suiteFileHashes(suiteFiles),
    probes: probeSettings(),
    declaredTarget: maskStrings(context.declaredTarget ?? null, masker),
    capabilities: [...target.capabilities],
    deviations: target.deviations.map((d) => ({
      requirement: d.requirement,
      reason: d.reason,
      ...(d.until ? { until: d.until } : {}),
      active: deviationFor(d.requirement, [d], finishedAt)?.expired !== true,
    })),
    ...(tpp ? { tpp: certificateIdentity(tpp.certificatePem, tpp.generated === true) } : {}),
    masked: context.maskPersonalData,
    arguments: context.arguments ?? [],
  };
}

/**
 * Provenance of a report judged on traffic (audit, proxy, serve --judge): what judged it, and where the traffic
 * came from (`declaredTarget.source`); no suite file ran and no probe was sent.
 */
export function trafficProvenance(tool: { name: string; version: string }, source: string, masked: boolean): Provenance {
  return {
    ...toolProvenance(tool),
    suiteFiles: [],
    probes: { runs: 0, seed: 0 },
    declaredTarget: { source },
    capabilities: [],
    deviations: [],
    masked,
    arguments: [],
  };
}

type ToolProvenance = Pick<Provenance, 'tool' | 'catalogue' | 'specification' | 'runtime'>;
let toolPart: { key: string; value: ToolProvenance } | undefined;

/**
 * What produced a report, whoever asked for it: the tool and its commit, the catalogue, the specification, the
 * runtime. Once per process: it asks git and Chromium, and `serve --judge` writes a report whenever one is read.
 */
function toolProvenance(tool: { name: string; version: string }): ToolProvenance {
  const key = `${tool.name}@${tool.version}`;
  if (toolPart?.key !== key) toolPart = { key, value: readToolProvenance(tool) };
  return toolPart.value;
}

function readToolProvenance(tool: { name: string; version: string }): ToolProvenance {
  return {
    tool: { ...tool, ...gitState() },
    catalogue: { version: catalogueVersion(), requirements: REQUIREMENTS.length },
    specification: { ...SPECIFICATION },
    runtime: {
      node: process.version,
      playwright: playwrightVersion(),
      chromium: chromiumVersion(),
      platform: `${process.platform} ${process.arch}`,
    },
  };
}

/** Each spec file once, named from the tool's root (through links, as a workspace of links runs it), with its SHA-256. */
function suiteFileHashes(files: readonly string[]): Provenance['suiteFiles'] {
  const real = new Set(files.filter((file) => existsSync(file)).map((file) => realpathSync(file)));
  return [...real].sort().map((file) => ({ path: relative(TOOL_ROOT, file), sha256: sha256(readFileSync(file)) }));
}

/** The catalogue's version: a hash of its content, so two reports say whether they judged the same rules. */
export function catalogueVersion(): string {
  return `sha256:${sha256(JSON.stringify(REQUIREMENTS)).slice(0, 16)}`;
}

/**
 * A targets.yaml entry as it can be shown: private keys and inline key material removed. Identities are
 * masked later, with the run's masker.
 */
export function declaredTargetOf(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map(declaredTargetOf);
  if (raw && typeof raw === 'object') {
    return Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [key, /^privateKey$/i.test(key) ? '(removed)' : declaredTargetOf(value)]),
    );
  }
  if (typeof raw === 'string' && raw.includes('PRIVATE KEY')) return '(removed: key material)';
  return raw;
}

function maskStrings(value: unknown, masker: Masker): unknown {
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, masker));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskStrings(item, masker)]));
  return typeof value === 'string' ? masker.text(value) : value;
}

function certificateIdentity(pem: string, generated: boolean): NonNullable<Provenance['tpp']> {
  const certificate = new X509Certificate(pem);
  const oneLine = (dn: string) => dn.split('\n').join(', ');
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    sha256: certificate.fingerprint256,
    generated,
  };
}

function gitState(): { commit?: string; dirty?: boolean } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: TOOL_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    // Changes to tracked files of the tool itself (reports and other untracked output do not count).
    const dirty = git('status', '--porcelain', '--untracked-files=no').length > 0;
    return { commit, dirty };
  } catch {
    return {}; // installed from a package, not a checkout
  }
}

function playwrightVersion(): string {
  return (createRequire(import.meta.url)('@playwright/test/package.json') as { version: string }).version;
}

function chromiumVersion(): string {
  try {
    const executable = findChromium(process.env);
    return (
      execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() ||
      `unknown (${executable})`
    );
  } catch (error) {
    return `unknown (${(error as Error).message.split('\n')[0]})`;
  }
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
