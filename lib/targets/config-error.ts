import { ConformanceError } from '../errors.js';

/**
 * A configuration error (exit 2): what the user wrote (targets.yaml, an option, an attestations or baseline
 * file) is wrong, and `field` names where. A module of its own, so that those who only raise or recognise it
 * do not load the targets file's schema and validator (lib/targets/load.ts).
 */
export class ConfigError extends ConformanceError {
  readonly code = 'XC_ERR_CONFIG';
  /** Every problem found, each with its field: one, or all of a target's at once (ConfigError.of). */
  readonly problems: readonly ConfigProblem[];

  constructor(
    readonly field: string,
    detail: string,
    problems?: readonly ConfigProblem[],
  ) {
    super(field ? `${field}: ${detail}` : detail);
    this.name = 'ConfigError';
    this.problems = problems ?? [{ field, detail }];
  }

  /**
   * One error for every problem found, so that a file is fixed in one go rather than one run per problem: a single
   * problem reads as it always did; several are listed one a line, each with its field (every environment variable
   * not set among them).
   */
  static of(problems: readonly ConfigProblem[], where: string): ConfigError {
    const [only] = problems;
    if (problems.length === 1 && only) return new ConfigError(only.field, only.detail, problems);
    const unset = problems.filter((problem) => problem.variable !== undefined).length;
    const heading =
      unset === problems.length
        ? `${unset} environment variables are not set`
        : `${problems.length} problems${unset > 0 ? `, ${unset} of them environment variables not set` : ''}`;
    return new ConfigError(
      where,
      `${heading}:\n${problems.map((problem) => `  ${problem.field}: ${problem.detail}`).join('\n')}`,
      problems,
    );
  }
}

/** One thing wrong in what the user wrote, where. */
export interface ConfigProblem {
  field: string;
  detail: string;
  /** An environment variable the field names that is not set. */
  variable?: string;
}
