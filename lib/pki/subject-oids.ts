// X.520 attribute types used in the subjects we issue.
export const SUBJECT_OID = {
  commonName: '2.5.4.3',
  countryName: '2.5.4.6',
  organizationName: '2.5.4.10',
  /** ETSI EN 319 412-1 5.1.4: e.g. PSDNO-FSA-123456 for a PSD2 TPP. */
  organizationIdentifier: '2.5.4.97',
} as const;
