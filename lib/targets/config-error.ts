/**
 * A configuration error (exit 2): what the user wrote (targets.yaml, an option, an attestations or baseline
 * file) is wrong, and `field` names where. A module of its own, so that those who only raise or recognise it
 * do not load the targets file's schema and validator (lib/targets/load.ts).
 */
export class ConfigError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(field ? `${field}: ${detail}` : detail);
    this.name = 'ConfigError';
  }
}
