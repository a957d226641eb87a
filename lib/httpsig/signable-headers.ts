// The headers a signature may cover (spec Authentication item 6), in the order
// a signer lists them.
export const SIGNABLE_HEADERS = ['date', 'digest', 'x-request-id', 'psu-id', 'psu-corporate-id', 'tpp-redirect-uri'] as const;
export type SignableHeader = (typeof SIGNABLE_HEADERS)[number];

/** Always signed, whatever else the request carries (Berlin Group implementation guidelines, section 11). */
export const ALWAYS_SIGNED_HEADERS: readonly SignableHeader[] = ['date', 'digest', 'x-request-id'];
/** Signed whenever they are present in the request. */
export const SIGNED_WHEN_PRESENT_HEADERS: readonly SignableHeader[] = ['psu-id', 'psu-corporate-id', 'tpp-redirect-uri'];

export function isSignableHeader(name: string): name is SignableHeader {
  return (SIGNABLE_HEADERS as readonly string[]).includes(name);
}
