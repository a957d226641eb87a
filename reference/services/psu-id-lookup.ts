// Which PSU a PSU-ID names for the request's TPP (psu-ids are issued per TPP: state/psu-directory.ts). Every
// route that takes a PSU-ID (accounts, consents, payments, baskets) asks here.
import { tppOf, type BankContext } from '../http/bank-context.js';
import type { PsuIdLookup } from '../state/psu-directory.js';
import { defineFault } from '../switches.js';

const foreignPsuIdHonoured = defineFault('foreign-psu-id-honoured', {
  description: 'a psu-id issued to another TPP is honoured: it names that PSU for this TPP too',
  breaks: ['PSU-06'],
});

/** The PSU a PSU-ID names for the request's TPP. */
export function resolvePsuId(ctx: BankContext, psuId: string): PsuIdLookup {
  const directory = ctx.world.psuIds;
  const lookup = directory.resolve(tppOf(ctx).id, psuId);
  if (lookup.kind !== 'unknown') return lookup;
  const foreign = directory.issuedAnywhere(psuId);
  return foreign !== undefined && ctx.switches.breaks(foreignPsuIdHonoured) ? { kind: 'known', customerNumber: foreign } : lookup;
}
