/**
 * Which text the suite checks: the Open Banking Interface Specification at the documentation version its
 * Versioning section names as the latest (and the API release it maps to), on the XS2A 1.3 framework.
 * Raise these with the catalogue when the specification moves.
 */
export const SPECIFICATION = {
  title: 'Open Banking Interface Specification (account information and payment initiation)',
  documentation: '2.16.0',
  apiRelease: '1.23.7',
  framework: 'NextGenPSD2 XS2A 1.3',
} as const;
