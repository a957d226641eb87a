// Who is the PSU of a request, in which context, with which SCA session and consent; and the
// 401 answers carrying `scaRedirect`.

import { DAY_MS } from './clock.js';
import { header, link, requireHeader, thirdPartyName, type Ctx } from './context.js';
import { ApiError, headerRequired } from './errors.js';
import { CONTEXT_PRIVATE, corporateContext, type ContextKey, type Customer, type Grant } from './model.js';
import { createFlow, sessionState, type FlowOptions } from './sca-flow.js';

export const CONSENT_RENEWAL_MS = 180 * DAY_MS;

/** The absolute address of an SCA flow. */
export function scaHref(ctx: Ctx, flowId: string): string {
  return `${ctx.baseUrl}/sca/${flowId}`;
}

/** A 401 whose body carries `_links.scaRedirect` to a new flow. */
export function scaRequired(
  ctx: Ctx,
  code: string,
  message: string,
  flow: Omit<FlowOptions, 'tppSessionId' | 'redirectUri' | 'thirdParty'>,
): ApiError {
  const f = createFlow(ctx.bank, ctx.world, {
    ...flow,
    tppSessionId: requireHeader(ctx, 'TPP-Session-ID'),
    redirectUri: requireHeader(ctx, 'TPP-Redirect-URI'),
    thirdParty: thirdPartyName(ctx),
  });
  return new ApiError(401, code, message, { links: { scaRedirect: link(scaHref(ctx, f.id), 'GET') } });
}

type PsuLookup = { kind: 'none' } | { kind: 'unknown'; header: string } | { kind: 'known'; customer: Customer };

/** Identifies the PSU by PSU-ID (per TPP) or X-PSU-IDENTITY (national identity number). */
export function lookupPsu(ctx: Ctx): PsuLookup {
  const psuId = header(ctx, 'psu-id');
  const identity = header(ctx, 'x-psu-identity');
  let byId: Customer | undefined;
  if (psuId !== undefined) {
    byId = ctx.world.customerByPsuId(psuId);
    if (!byId) return { kind: 'unknown', header: 'PSU-ID' };
  }
  if (identity !== undefined) {
    const byIdentity = ctx.world.customers.get(identity);
    if (!byIdentity) return { kind: 'unknown', header: 'X-PSU-IDENTITY' };
    if (byId && byId.customerNumber !== byIdentity.customerNumber) {
      throw new ApiError(400, 'FORMAT_ERROR', 'PSU-ID and X-PSU-IDENTITY identify different PSUs');
    }
    return { kind: 'known', customer: byIdentity };
  }
  return byId ? { kind: 'known', customer: byId } : { kind: 'none' };
}

export function unknownPsuError(h: string, links?: ApiError['links']): ApiError {
  return new ApiError(401, 'PSU_CREDENTIALS_INVALID', `${h} cannot be matched to a PSU of this bank for this TPP`, links ? { links } : {});
}

/** Whether the request names a context explicitly (PSU-Context or PSU-Corporate-ID). */
export function explicitContext(ctx: Ctx): boolean {
  return header(ctx, 'psu-corporate-id') !== undefined || header(ctx, 'psu-context') !== undefined;
}

/**
 * The context of a request for an identified PSU: CORPORATE when PSU-Corporate-ID is given,
 * PRIVATE otherwise. A corporate user without PSU-Corporate-ID gets 400.
 */
export function resolveContext(ctx: Ctx, customer: Customer): ContextKey {
  const corp = header(ctx, 'psu-corporate-id');
  const psuContext = header(ctx, 'psu-context');
  if (corp === undefined) {
    if (psuContext === 'CORPORATE') throw headerRequired('PSU-Corporate-ID');
    if (customer.type === 'corporate') {
      throw new ApiError(400, 'HTTP_HEADER_REQUIRED', 'Header PSU-Corporate-ID is required for a corporate user');
    }
    return CONTEXT_PRIVATE;
  }
  if (psuContext === 'PRIVATE') throw new ApiError(400, 'FORMAT_ERROR', 'PSU-Context PRIVATE contradicts PSU-Corporate-ID');
  const agreement = ctx.world.agreementByCorporateId(corp);
  if (!agreement || !ctx.world.hasContext(customer.customerNumber, corporateContext(agreement.agreementId))) {
    throw new ApiError(401, 'CORPORATE_ID_INVALID', 'PSU-Corporate-ID does not identify a corporate agreement of this PSU');
  }
  return corporateContext(agreement.agreementId);
}

/** A PSU is present when the TPP forwards PSU-IP-Address. */
export function psuPresent(ctx: Ctx): boolean {
  return header(ctx, 'psu-ip-address') !== undefined;
}

/** Session check for a present PSU: 401 SCA_NOT_FOUND / SCA_EXPIRED / SCA_INVALID with scaRedirect. */
export function requireSession(ctx: Ctx, customer: Customer, flow: Omit<FlowOptions, 'tppSessionId' | 'redirectUri' | 'thirdParty'>): void {
  const state = sessionState(ctx.world, header(ctx, 'tpp-session-id'), customer.customerNumber);
  if (state === 'valid') return;
  if (state === 'none') throw scaRequired(ctx, 'SCA_NOT_FOUND', 'No SCA has been performed in this TPP-Session-ID', flow);
  if (state === 'expired') throw scaRequired(ctx, 'SCA_EXPIRED', 'The SCA of this TPP-Session-ID has expired (1 hour)', flow);
  throw scaRequired(ctx, 'SCA_INVALID', 'The SCA of this TPP-Session-ID is not valid for this PSU', flow);
}

export function grantOf(ctx: Ctx, customer: Customer, contextKey: ContextKey): Grant | undefined {
  return ctx.world.grants.get(ctx.world.grantKey(customer.customerNumber, contextKey));
}
