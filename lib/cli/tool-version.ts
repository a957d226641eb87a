/**
 * What `--version` names: this tool, the requirement catalogue it checks against (its size and a digest of
 * its content, so two runs can tell whether they judged by the same rules) and the specification.
 */
import { createHash } from 'node:crypto';
import { REQUIREMENTS } from '../spec/requirements.js';
import { TOOL } from './package-root.js';

export const SPECIFICATION = 'Open Banking Interface Specification (XS2A framework 1.3 family)';

export function catalogueVersion(): string {
  const digest = createHash('sha256').update(JSON.stringify(REQUIREMENTS)).digest('hex').slice(0, 12);
  return `${REQUIREMENTS.length} requirements, sha256:${digest}`;
}

export function versionText(): string {
  return [`${TOOL.name} ${TOOL.version}`, `catalogue: ${catalogueVersion()}`, `specification: ${SPECIFICATION}`].join('\n');
}
