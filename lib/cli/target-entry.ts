/**
 * A target entry of targets.yaml as text, commented for the person who fills it in: what `init` writes and what
 * `serve` prints for itself. The SCA steps are a starting point copied from the shipped targets.yaml (the
 * reference bank's pages, or the alternative ones), comments included, so that there is one source of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isAlias, parseDocument, visit, type Node } from 'yaml';
import type { Environment, PsuConfig, TargetCapability } from '../targets/target-types.js';
import { PACKAGE_ROOT } from './package-root.js';

/** The SCA steps an entry starts from: those of a shipped target, or none (a rule to fill in). */
export const SCA_STARTING_POINTS = { reference: 'reference', alternative: 'reference-alt', none: undefined } as const;
export type ScaStartingPoint = keyof typeof SCA_STARTING_POINTS;

export interface TargetEntry {
  name: string;
  description?: string;
  /** An https:// address, or a `${VAR}` reference. */
  baseUrl: string;
  environment: Environment;
  /**
   * The bank's CA: a PEM file (relative to targets.yaml) or a `${VAR}`; none: the system's trust store is not used, so one is asked for.
   */
  ca?: string;
  /** The TPP's certificate and key files (or `${VAR}`s), or a test certificate from the suite's own CA. */
  tpp: { certificate: string; privateKey: string } | { generate: true };
  redirectUri: string;
  psus: Record<string, PsuConfig>;
  sca: ScaStartingPoint;
  /** The shipped target's sandbox operations too (for the reference bank served: its own shapes). */
  sandboxOfStartingPoint?: boolean;
  capabilities: readonly TargetCapability[];
  /** A comment line above the entry (who wrote it, what to do next). */
  heading?: string;
}

const quoted = (value: string) => JSON.stringify(value);

/** The entry as it stands under `targets:` (indented two spaces), ending with a newline. */
export function targetEntryYaml(entry: TargetEntry): string {
  const lines: string[] = [];
  if (entry.heading) lines.push(`# ${entry.heading}`);
  lines.push(`${entry.name}:`);
  const body: string[] = [];
  if (entry.description) body.push(`description: ${quoted(entry.description)}`);
  body.push(
    `baseUrl: ${entry.baseUrl.startsWith('${') ? entry.baseUrl : quoted(entry.baseUrl)}   # the interface's root: the suite sends GET <baseUrl>/v1/accounts (\`doctor\` checks it answers there)`,
    `environment: ${entry.environment}   # sandbox | staging | production (production gets reads only, never a write)`,
  );
  if (entry.ca)
    body.push(
      `tls: { ca: ${quoted(entry.ca)} }   # the CA of the bank's TLS certificate: a PEM file (relative to this file) or inline PEM`,
    );
  else body.push('# tls: { ca: "bank-ca.pem" }   # the CA of the bank\'s TLS certificate (the system\'s store is never used)');
  body.push('tpp:');
  if ('generate' in entry.tpp) {
    body.push(
      "  generate: true   # a test certificate from the suite's own CA: for a bank that accepts any (a sandbox), or trusts that CA",
    );
  } else {
    body.push(
      `  certificate: ${quoted(entry.tpp.certificate)}   # your TPP's certificate (PEM) and its key; keep the key out of the repository`,
    );
    body.push(`  privateKey: ${quoted(entry.tpp.privateKey)}`);
  }
  body.push(`  redirectUri: ${quoted(entry.redirectUri)}   # TPP-Redirect-URI: where the bank sends the PSU after SCA`);
  body.push('psus:   # the PSUs the scenarios log in as (`{{psu.nationalId}}` in the SCA steps)');
  for (const [name, psu] of Object.entries(entry.psus)) body.push(`  ${name}: ${flowMap(psu)}`);
  if (!Object.hasOwn(entry.psus, 'isolated')) {
    body.push(
      '  # isolated: { nationalId: "…", context: PRIVATE }   # a PSU whose consents and sessions the suite may change, for a bank without sandbox-mock-data',
    );
  }
  const start = SCA_STARTING_POINTS[entry.sca];
  if (start === undefined) {
    body.push(
      '# The SCA pages: one rule per page the PSU sees, its URL as a glob, the steps a PSU takes there (README: "Writing a bank\'s SCA steps").',
      'sca:',
      '  - match: "**/login**"',
      '    steps:',
      '      - fill: { selector: "#nationalId", value: "{{psu.nationalId}}" }',
      '      - click: { selector: "button[type=submit]" }',
    );
  } else {
    const shipped = shippedTarget(start);
    body.push(
      `# The SCA pages, as a starting point: those of the shipped target "${start}" (README: "Writing a bank's SCA steps"). Adapt them to your pages.`,
    );
    body.push(...shipped(['scaDriver', 'sca', 'scaVariants']));
    if (entry.sandboxOfStartingPoint) body.push(...shipped(['sandbox']));
  }
  body.push(
    `capabilities: [${entry.capabilities.join(', ')}]   # what the bank offers beyond the interface (README: Capabilities); \`doctor\` probes each one declared`,
  );
  lines.push(...body.map((line) => `  ${line}`));
  return `${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

function flowMap(psu: PsuConfig): string {
  return `{ ${Object.entries(psu)
    .map(([key, value]) => `${key}: ${key === 'context' ? String(value) : quoted(String(value))}`)
    .join(', ')} }`;
}

/**
 * The keys of a target of the shipped targets.yaml, as YAML lines with their comments, anchors left out (the
 * entry stands alone in another file).
 */
function shippedTarget(name: string): (keys: readonly string[]) => string[] {
  const document = parseDocument(readFileSync(join(PACKAGE_ROOT, 'targets.yaml'), 'utf8'));
  return (keys) =>
    keys.flatMap((key) => {
      const found = document.getIn(['targets', name, key], true) as Node | undefined;
      // reference-alt shares the reference target's sandbox through an alias.
      const node = isAlias(found) ? (found.resolve(document) as Node | undefined) : found;
      if (node === undefined) return [];
      const copy = node.clone() as Node;
      visit(copy, { Node: (_key, inner) => void delete (inner as { anchor?: string }).anchor });
      delete (copy as { anchor?: string }).anchor;
      const text = new Document(copy).toString({ lineWidth: 0 }).trimEnd();
      return text.includes('\n') ? [`${key}:`, ...text.split('\n').map((line) => `  ${line}`)] : [`${key}: ${text}`];
    });
}
