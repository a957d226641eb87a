// The SCA redirect pages (Authentication items 9-14, Events): login with a national
// identity number, the choice of context for a PSU with corporate agreements, and
// the bank-offered consent as a checkbox list. Then 303 back to TPP-Redirect-URI,
// with psu-id and friends on success or the error parameters on failure.
//
// Routes: GET/POST /sca/:id (login), /sca/:id/code (only with a page set that asks
// for a one-time code), /sca/:id/context, /sca/:id/consent. Each GET
// sends the browser to the step the authorisation is at, so reloads and the back
// button do no harm. These are browser pages: not signed, form-encoded.
import { randomInt } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { defineFault, defineVariant } from '../switches.js';
import { decidePayments, paymentMovedOn, paymentsShown } from '../services/payment-approval.js';
import { sessionSparingLogin } from '../services/consent-in-force.js';
import { failureRedirect, successRedirect } from '../services/sca-answers.js';
import { referencePages } from '../sca-pages/named-page-sets.js';
import type { ScaPageSet } from '../sca-pages/sca-page-set.js';
import { PRIVATE, type PsuContext } from '../state/sandbox-data.js';
import type { Authorisation } from '../state/sca-state.js';

// [sandbox] GEN-06: the sandbox login asks for the mocked national identity number and nothing else.
const loginNeedsPassword = defineFault('sandbox-login-needs-password', {
  description:
    'the sandbox login also wants a password: a login with the national identity number alone fails the SCA (PSU_CREDENTIALS_INVALID)',
  breaks: ['GEN-06'],
});
/** An unknown national identity number ends the SCA in the failure redirect at once (the sandbox login of the interface family). */
export const MAX_LOGIN_ATTEMPTS = 1;

const unknownPsuLoginCodeFormatError = defineFault('unknown-psu-login-code-format-error', {
  description:
    'the redirect after a login with an unknown national identity number carries code FORMAT_ERROR instead of PSU_CREDENTIALS_INVALID',
  breaks: ['ERR-20'],
});

const cancelCodeConsentInvalid = defineFault('cancel-code-consent-invalid', {
  description: 'the redirect after the PSU cancels SCA carries code CONSENT_INVALID instead of SCA_INVALID',
  breaks: ['ERR-20'],
});
const cancelCompletesSca = defineFault('cancel-completes-sca', {
  description:
    'a PSU who cancels on the consent page is redirected as after a successful SCA (psu-id, a session), not with the error parameters',
  breaks: ['SES-03'],
});
// [blind-spots] One link, one SCA (SCA-24).
const linkReusable = defineFault('sca-link-reusable', {
  description:
    'no scaRedirect closes: one whose SCA completed or failed, or whose payment moved on, can be gone through (again), and ends in a success redirect',
  breaks: ['SCA-24', 'SCA-25'],
});
const usedLinkFailureRedirect = defineVariant('used-link-failure-redirect', {
  description:
    'a link whose SCA completed or failed sends the PSU back to the TPP with the failure redirect (409 CONFLICT) instead of showing an error page',
  allowedBy:
    'After failed SCA the redirect "carries error parameters" (system, status, code, message); the specification gives a used link no page of its own',
  source: 'Specification, Events > After failed SCA',
});
const scaPagesDenyFraming = defineFault('sca-pages-deny-framing', {
  description: "the SCA pages send X-Frame-Options: DENY and frame-ancestors 'none', so a TPP cannot show them in a frame",
  breaks: ['SCA-11'],
});

const consentNotStored = defineFault('consent-not-stored', {
  description: 'the consent the PSU confirms during SCA in private context is not stored, so PSU-ID calls keep answering 401',
  breaks: ['SCA-13', 'PSU-05'],
});
const consentStoredEmpty = defineFault('consent-stored-empty', {
  description: 'the consent in private context is stored without the accounts the PSU ticked, so the TPP sees none',
  breaks: ['SCA-05', 'SCA-19', 'END-09'],
});
const contextChosenByTpp = defineFault('context-chosen-by-tpp', {
  description: "the PSU's choice on the context page is ignored: SCA ends in the context the TPP asked for (PRIVATE when it asked none)",
  breaks: ['GEN-11'],
});
const consentPageNotPreselected = defineFault('consent-page-not-preselected', {
  description: 'the consent page shows every account unticked, the consented ones too',
  breaks: ['SCA-18'],
});

type Step = 'login' | 'code' | 'context' | 'consent' | 'confirm';

export interface ScaPluginOptions {
  /** Which pages the PSU sees (reference/sca-pages/named-page-sets.ts); the reference bank's own by default. */
  pages?: ScaPageSet;
}

interface Page {
  Params: { id: string };
  Body: Record<string, string | string[] | undefined> | undefined;
}

/** A page request, once its authorisation is known: `request.switches` is the bank as that authorisation's TPP meets it. */
type PageRequest = FastifyRequest<Page>;

function stepOf(a: Authorisation): Step {
  if (a.status === 'RECEIVED' || a.customerNumber === undefined) return 'login';
  if (a.context === undefined) return 'context';
  return a.purpose === 'payment' ? 'confirm' : 'consent';
}

/** The PSU and context of an authorisation past those steps (the step guard in `at` ensures it). */
function psuOf(a: Authorisation): { customerNumber: string; context: PsuContext | undefined } {
  if (a.customerNumber === undefined) throw new Error(`authorisation ${a.id} has no PSU yet`);
  return { customerNumber: a.customerNumber, context: a.context };
}

function contextOf(a: Authorisation): { customerNumber: string; context: PsuContext } {
  const { customerNumber, context } = psuOf(a);
  if (context === undefined) throw new Error(`authorisation ${a.id} has no context yet`);
  return { customerNumber, context };
}

function pathOf(a: Authorisation, step: Step): string {
  return step === 'login' ? `/sca/${a.id}` : `/sca/${a.id}/${step}`;
}

// Both send and return nothing: a page handler's return value would be sent again.
// No frame-ancestors and no X-Frame-Options: a TPP may show the SCA site in a frame (Authentication 12).
function html(reply: FastifyReply, body: string, status = 200, denyFraming = false): void {
  const csp = "default-src 'none'; style-src 'unsafe-inline'";
  void reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', denyFraming ? `${csp}; frame-ancestors 'none'` : csp)
    .type('text/html; charset=utf-8');
  if (denyFraming) void reply.header('x-frame-options', 'DENY');
  void reply.send(body);
}

function seeOther(reply: FastifyReply, location: string): void {
  void reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

function field(body: Page['Body'], name: string): string | undefined {
  const value = body?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function fields(body: Page['Body'], name: string): string[] {
  const value = body?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const scaPlugin = fp(
  (app, options: ScaPluginOptions, done) => {
    const { tenants, switches } = app;
    const pages = options.pages ?? referencePages;
    // A page set with a one-time-code step: login names the PSU, the code (shown in the sandbox) authenticates them.
    const awaitingCode = new WeakMap<Authorisation, { customerNumber: string; code: string; wrong: number }>();
    const stepAt = (a: Authorisation): Step => (a.status === 'RECEIVED' && awaitingCode.has(a) ? 'code' : stepOf(a));
    void app.register(formbody);

    /**
     * Runs `handle` for a pending authorisation at `step`; otherwise answers with the
     * page for an unknown one, the failure redirect for an expired one, or a redirect
     * to the step it is really at.
     */
    function at(step: Step, handle: (a: Authorisation, request: PageRequest, reply: FastifyReply) => void) {
      return (request: PageRequest, reply: FastifyReply): void => {
        // The world the authorisation was started in: its TPP's (reference/state/tenants.ts).
        const world = tenants.worldOfAuthorisation(request.params.id);
        if (world === undefined) {
          return html(
            reply,
            pages.message('Unknown authorisation', 'This authorisation link is unknown, or it has already been used.'),
            404,
          );
        }
        request.world = world;
        const pending = world.sca.pending(request.params.id);
        const found = pending ?? world.sca.find(request.params.id);
        if (found !== undefined) request.switches = switches.forTpp(found.tppId);
        // A finished authorisation is served again only by a bank with the fault (SCA-24).
        const a = pending ?? (found !== undefined && request.switches.breaks(linkReusable) ? reopened(found) : undefined);
        if (a === undefined && found !== undefined && request.switches.reads(usedLinkFailureRedirect)) {
          return seeOther(reply, failureRedirect(request, found, 409, 'CONFLICT', 'This authorisation link has already been used'));
        }
        if (a === undefined) {
          return html(
            reply,
            pages.message('Unknown authorisation', 'This authorisation link is unknown, or it has already been used.'),
            404,
          );
        }
        if (world.sca.isExpired(a))
          return seeOther(reply, failureRedirect(request, a, 401, 'SCA_EXPIRED', 'The authorisation expired before it was completed'));
        // A link is for its payments as they were when it was issued: one that moved on without it closes it.
        const movedOn = request.switches.breaks(linkReusable) ? undefined : paymentMovedOn(request, a);
        if (movedOn !== undefined) {
          return seeOther(
            reply,
            failureRedirect(
              request,
              a,
              409,
              'CONFLICT',
              `The payment ${movedOn.id} no longer awaits this authorisation (status ${movedOn.status})`,
            ),
          );
        }
        if (request.method === 'POST' && field(request.body, 'action') === 'cancel') {
          if (step === 'consent' && stepOf(a) === 'consent' && request.switches.breaks(cancelCompletesSca))
            return confirmConsent(a, request, [], reply);
          const code = request.switches.breaks(cancelCodeConsentInvalid) ? 'CONSENT_INVALID' : 'SCA_INVALID';
          return seeOther(reply, failureRedirect(request, a, 400, code, 'The PSU cancelled the authorisation'));
        }
        const sessionCustomer = sessionSparingLogin(request, a);
        if (sessionCustomer !== undefined) authenticate(request, a, sessionCustomer);
        const current = stepAt(a);
        if (current !== step) return seeOther(reply, pathOf(a, current));
        return handle(a, request, reply);
      };
    }

    /** A finished authorisation, taken up again where its PSU left it. */
    function reopened(a: Authorisation): Authorisation {
      a.status = 'PSU_AUTHENTICATED';
      return a;
    }

    /** Login done (or spared by a valid session); a PSU without agreements is in private context. */
    function authenticate(request: PageRequest, a: Authorisation, customerNumber: string): void {
      request.world.sca.authenticated(a, customerNumber);
      if (request.world.data.agreementsOf(customerNumber).length === 0) a.context = PRIVATE;
    }

    app.get<Page>(
      '/:id',
      at('login', (_a, request, reply) => html(reply, pages.login(), 200, request.switches.breaks(scaPagesDenyFraming))),
    );

    app.post<Page>(
      '/:id',
      at('login', (a, request, reply) => {
        const { body } = request;
        const nationalId = field(body, 'nationalId')?.trim() ?? '';
        if (!field(body, 'password') && request.switches.breaks(loginNeedsPassword)) {
          return seeOther(reply, failureRedirect(request, a, 401, 'PSU_CREDENTIALS_INVALID', 'A password is required'));
        }
        if (request.world.data.customers.has(nationalId)) {
          if (pages.oneTimeCode) {
            awaitingCode.set(a, { customerNumber: nationalId, code: String(randomInt(1_000_000)).padStart(6, '0'), wrong: 0 });
            return seeOther(reply, pathOf(a, 'code'));
          }
          authenticate(request, a, nationalId);
          return seeOther(reply, pathOf(a, stepOf(a)));
        }
        a.failedLogins += 1;
        if (a.failedLogins >= MAX_LOGIN_ATTEMPTS) {
          const code = request.switches.breaks(unknownPsuLoginCodeFormatError) ? 'FORMAT_ERROR' : 'PSU_CREDENTIALS_INVALID';
          return seeOther(reply, failureRedirect(request, a, 401, code, 'The PSU could not be identified'));
        }
        const left = MAX_LOGIN_ATTEMPTS - a.failedLogins;
        return html(reply, pages.login(`Unknown national identity number. ${left} attempt${left > 1 ? 's' : ''} left.`));
      }),
    );

    const { oneTimeCode } = pages;
    // A mistyped code may be typed again, twice: the PSU is known by then (a bank's own choice).
    const MAX_CODE_ATTEMPTS = 3;
    if (oneTimeCode) {
      const expected = (a: Authorisation) => {
        const pending = awaitingCode.get(a);
        if (pending === undefined) throw new Error(`authorisation ${a.id} awaits no code`); // the step guard in `at` ensures it
        return pending;
      };
      app.get<Page>(
        '/:id/code',
        at('code', (a, _request, reply) => html(reply, oneTimeCode(expected(a).code))),
      );
      app.post<Page>(
        '/:id/code',
        at('code', (a, request, reply) => {
          const pending = expected(a);
          const { customerNumber, code } = pending;
          if (field(request.body, 'code')?.trim() !== code) {
            pending.wrong += 1;
            if (pending.wrong >= MAX_CODE_ATTEMPTS)
              return seeOther(reply, failureRedirect(request, a, 401, 'PSU_CREDENTIALS_INVALID', 'The PSU could not be authenticated'));
            return html(reply, oneTimeCode(code, 'That code is not right. Try again.'));
          }
          awaitingCode.delete(a);
          authenticate(request, a, customerNumber);
          return seeOther(reply, pathOf(a, stepOf(a)));
        }),
      );
    }

    const requested = (a: Authorisation) =>
      a.requestedContext?.kind === 'CORPORATE' ? `CORPORATE:${a.requestedContext.agreementId}` : 'PRIVATE';

    app.get<Page>(
      '/:id/context',
      at('context', (a, request, reply) =>
        html(reply, pages.context(request.world.data.agreementsOf(psuOf(a).customerNumber), requested(a))),
      ),
    );

    app.post<Page>(
      '/:id/context',
      at('context', (a, request, reply) => {
        const { customerNumber } = psuOf(a);
        const choice = field(request.body, 'context') ?? '';
        const agreementId = choice.startsWith('CORPORATE:') ? choice.slice('CORPORATE:'.length) : undefined;
        let context: PsuContext | undefined;
        if (choice === 'PRIVATE') context = PRIVATE;
        else if (agreementId !== undefined && request.world.data.agreementFor(customerNumber, agreementId))
          context = { kind: 'CORPORATE', agreementId };
        if (context === undefined) {
          return html(reply, pages.context(request.world.data.agreementsOf(customerNumber), requested(a), 'Choose one of the options.'));
        }
        // The PSU's pick decides; the TPP's wish only pre-selects it.
        a.context = request.switches.breaks(contextChosenByTpp) ? (a.requestedContext ?? PRIVATE) : context;
        return seeOther(reply, pathOf(a, stepOf(a)));
      }),
    );

    /** Accounts offered on the consent page: those of the context that are not closed. */
    const offered = (request: PageRequest, a: Authorisation) => {
      const { customerNumber, context } = contextOf(a);
      return request.world.data.accountsIn(customerNumber, context).filter((acc) => acc.status !== 'deleted');
    };

    app.get<Page>(
      '/:id/consent',
      at('consent', (a, request, reply) => {
        const { customerNumber, context } = contextOf(a);
        const stored = request.world.consents.consentedIds(a.tppId, customerNumber, context);
        const consented = stored.size > 0 && request.switches.breaks(consentPageNotPreselected) ? new Set<string>() : stored;
        html(reply, pages.consent(a.tppName, offered(request, a), consented));
      }),
    );

    app.post<Page>(
      '/:id/consent',
      at('consent', (a, request, reply) => {
        return confirmConsent(a, request, fields(request.body, 'account'), reply);
      }),
    );

    /** The PSU confirmed the consent page with these accounts ticked: the consent is stored and SCA completes. */
    function confirmConsent(a: Authorisation, request: PageRequest, tickedIds: string[], reply: FastifyReply): void {
      const { customerNumber, context } = contextOf(a);
      const ticked = new Set(tickedIds);
      const granted = offered(request, a)
        .filter((acc) => ticked.has(acc.resourceId))
        .map((acc) => acc.resourceId);
      // The consent faults break the private consent (SCA-13, SCA-05); the corporate one is SCA-14's to judge.
      const isPrivate = context.kind === 'PRIVATE';
      if (!(isPrivate && request.switches.breaks(consentNotStored))) {
        request.world.consents.grant(
          a.tppId,
          customerNumber,
          context,
          isPrivate && request.switches.breaks(consentStoredEmpty) ? [] : granted,
          request.world.clock.now(),
        );
      }
      const psuCorporateId = context.kind === 'CORPORATE' ? context.agreementId : undefined;
      return seeOther(reply, successRedirect(request, a, customerNumber, context, psuCorporateId));
    }
    // Payments: the PSU confirms amount and creditor (services/payment-approval.ts, sca-pages/payment-confirmation-page.ts).
    app.get<Page>(
      '/:id/confirm',
      at('confirm', (a, request, reply) => html(reply, pages.confirm(a, paymentsShown(request, a)))),
    );
    app.post<Page>(
      '/:id/confirm',
      at('confirm', (a, request, reply) => {
        const { customerNumber, context } = contextOf(a);
        return seeOther(reply, decidePayments(request, a, customerNumber, context, field(request.body, 'decision') === 'approve'));
      }),
    );
    done();
  },
  { name: 'sca-pages', encapsulate: true, decorators: { fastify: ['tenants', 'switches'] } },
);
