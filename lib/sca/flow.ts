/**
 * The browser side of SCA: open the bank's scaRedirect, run the target's declarative page rules
 * (match a URL, then fill / click / check / select / wait / read), and capture the redirect back to
 * TPP-Redirect-URI. The same mechanism drives the reference bank and any real bank's pages.
 */
import type { Page, Request } from '@playwright/test';
import type { ScaPageRule, ScaStep } from '../targets/target-types.js';
import { ConformanceError } from '../errors.js';

export interface RedirectCapture {
  /** The full URL the bank sent the PSU to. */
  url: string;
  /** Its query parameters (psu-id, tpp-session-id, context … or system, status, code, message). */
  params: Record<string, string>;
  /** A redirect with error parameters (status, code, message: any one of them) is a failed SCA. */
  outcome: 'success' | 'failure';
  /** The pages the flow went through, in order, for evidence. */
  pages: string[];
  /** Texts the target's `read` steps took from its pages, by their `as` name. */
  read: Record<string, string>;
}

/** The parameters of the redirect after a failed SCA (Events) that the one after a successful SCA never carries. */
const FAILURE_PARAMETERS: readonly string[] = ['status', 'code', 'message'];

export interface ScaFlowOptions {
  href: string;
  redirectUri: string;
  rules: readonly ScaPageRule[];
  /** Values for `{{name.path}}` placeholders in step values, e.g. { psu: { nationalId } }. */
  variables: Record<string, unknown>;
  timeoutMs: number;
  /** Checks that the SCA site answers at all (a TLS handshake); rejects when it cannot be reached. */
  probe?: (href: string) => Promise<unknown>;
  /**
   * Stop, with a `refused` failure, at a page the bank answers with an HTTP error status instead of running
   * the steps on it: for a link that is expected to be closed, whose error page may match a rule's URL.
   */
  stopAtErrorPage?: boolean;
  /** Told of every value a step types or selects, before it is typed: what a PSU types is a secret (the masker learns it). */
  onTyped?: (value: string) => void;
}

/**
 * Why a flow did not reach TPP-Redirect-URI. `network`: the SCA site could not be reached (the run cannot
 * judge: INTERRUPTED). `browser`: the browser went away (INTERRUPTED). `stuck`: a page did not match the
 * target's configured steps, or a step could not be done (the configuration or the bank's pages differ).
 * `refused`: the bank answered a page of the flow with an HTTP error status (only with `stopAtErrorPage`).
 */
export type ScaFlowFailure = 'network' | 'browser' | 'stuck' | 'refused';

export class ScaFlowError extends ConformanceError {
  readonly code = 'XC_ERR_SCA_FLOW';
  constructor(
    message: string,
    readonly pages: string[],
    readonly kind: ScaFlowFailure = 'stuck',
  ) {
    super(message);
    this.name = 'ScaFlowError';
  }
}

export async function runScaFlow(page: Page, options: ScaFlowOptions): Promise<RedirectCapture> {
  const deadline = Date.now() + options.timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const pages: string[] = [];
  const isRedirect = redirectMatcher(options.redirectUri);

  // page.route is not called for a redirect the browser follows; the request event is.
  let captured: Request | undefined;
  const redirected = page
    .waitForRequest((request) => isRedirect(request.url()), { timeout: options.timeoutMs })
    .then((request) => (captured = request))
    .catch(() => undefined);

  // A page of the flow that did not load (the browser then shows its own error page): checked for reachability when stuck.
  let failedNavigation: { url: string; reason: string } | undefined;
  page.on('requestfailed', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && !isRedirect(request.url())) {
      failedNavigation = { url: request.url(), reason: request.failure()?.errorText ?? 'failed' };
    }
  });
  // The HTTP status of the document the main frame shows (an error page of the bank, with stopAtErrorPage).
  let documentStatus = 0;
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) documentStatus = response.status();
  });
  page.on('framenavigated', (frame) => {
    // Chromium's own error page (shown when the redirect host does not resolve) is not a page of the bank.
    const url = frame.url();
    if (frame === page.mainFrame() && !isRedirect(url) && !url.startsWith('chrome-error:')) pages.push(url);
  });

  const opened = await page.goto(options.href, { timeout: remaining() }).then(
    () => undefined,
    (error: Error) => error,
  );
  if (opened && !captured) {
    // The browser's own verdict on the site's certificate (chain and host name) is final: it is named, never retried around.
    const certificate = CERTIFICATE_ERROR.exec(opened.message)?.[0];
    if (certificate)
      throw new ScaFlowError(
        `the browser refused the TLS certificate of the SCA site ${options.href} (${certificate}): it is not valid for that host under the bank's CA`,
        pages,
        'network',
      );
    throw new ScaFlowError(
      `could not open the scaRedirect ${options.href}: ${opened.message}`,
      pages,
      await unreachableOr('stuck', options.href, options),
    );
  }

  const pending = options.rules.map((rule) => ({ rule, matches: globToRegExp(rule.match) }));
  const read: Record<string, string> = {};
  /** The first rule whose URL the page is at and whose `when` it shows, once there is one. */
  const nextRule = async (): Promise<(typeof pending)[number] | undefined> => {
    for (;;) {
      await page.waitForURL((url) => pending.some(({ matches }) => matches.test(url.href)), { timeout: remaining() });
      const at = pending.filter(({ matches }) => matches.test(page.url()));
      for (const candidate of at) {
        if (candidate.rule.when === undefined || (await page.locator(candidate.rule.when).count()) > 0) return candidate;
      }
      // At a rule's address, but not yet showing its page (pages sharing one URL): one of theirs, or another page.
      const shown = at.map(({ rule }) =>
        page
          .locator(rule.when ?? ':root')
          .first()
          .waitFor({ state: 'attached', timeout: remaining() }),
      );
      await Promise.race([Promise.any(shown), page.waitForEvent('framenavigated', { timeout: remaining() })]);
    }
  };
  while (!captured) {
    const next = await Promise.race([redirected.then(() => undefined), nextRule().catch(() => undefined)]);
    if (captured) break;
    if (!next)
      throw await stuck(
        page,
        pending.map((p) => p.rule),
        pages,
        options,
        failedNavigation,
      );
    if (options.stopAtErrorPage && documentStatus >= 400)
      throw new ScaFlowError(`the bank answered ${page.url()} with HTTP ${documentStatus}`, pages, 'refused');
    pending.splice(pending.indexOf(next), 1);
    for (const step of next.rule.steps) {
      try {
        if ('read' in step)
          read[step.read.as] = (
            await page.locator(expand(step.read.selector, options.variables)).innerText({ timeout: remaining() })
          ).trim();
        // What earlier read steps took is a value for later steps: {{read.<as>}} (a one-time code shown in a sandbox).
        else await runStep(page, step, { ...options.variables, read }, remaining(), options.onTyped);
      } catch (error) {
        if (error instanceof ScaFlowError || page.isClosed()) throw error;
        const what = Object.keys(step)[0] ?? 'step';
        throw new ScaFlowError(
          `SCA step ${what} of the page rule "${next.rule.match}" could not be done at ${page.url()}: ${(error as Error).message.split('\n')[0]}`,
          pages,
        );
      }
    }
    if (pending.length === 0) break;
  }
  // All rules ran: the last click should be sending the PSU back; wait for that until the deadline.
  if (!captured) await redirected;
  if (!captured) throw await stuck(page, [], pages, options, failedNavigation);

  return captureOf(captured.url(), pages, read);
}

/** The redirect to TPP-Redirect-URI as a flow (in the browser or over HTTP) captured it. */
export function captureOf(redirect: string, pages: string[], read: Record<string, string>): RedirectCapture {
  const url = new URL(redirect);
  const params = Object.fromEntries(url.searchParams.entries());
  // Any one error parameter tells a failure: a bank that leaves out code still reports one (EVT-10 judges the omission).
  const failed = FAILURE_PARAMETERS.some((name) => name in params);
  return { url: url.href, params, outcome: failed ? 'failure' : 'success', pages, read };
}

async function runStep(
  page: Page,
  step: Exclude<ScaStep, { read: unknown }>,
  variables: Record<string, unknown>,
  timeout: number,
  onTyped?: (value: string) => void,
): Promise<void> {
  const typed = (template: string) => {
    const value = expand(template, variables);
    onTyped?.(value);
    return value;
  };
  if ('fill' in step) return page.locator(step.fill.selector).fill(typed(step.fill.value), { timeout });
  if ('click' in step) return page.locator(expand(step.click.selector, variables)).click({ timeout });
  if ('select' in step) {
    await page.locator(step.select.selector).selectOption(typed(step.select.value), { timeout });
    return;
  }
  if ('check' in step || 'uncheck' in step) {
    const { selector, all } = 'check' in step ? step.check : step.uncheck;
    const checked = 'check' in step;
    const locator = page.locator(expand(selector, variables));
    const targets = all ? await locator.all() : [locator];
    for (const box of targets) await box.setChecked(checked, { timeout });
    return;
  }
  if (step.wait.selector) await page.locator(step.wait.selector).waitFor({ timeout });
  if (step.wait.url) await page.waitForURL(globToRegExp(step.wait.url), { timeout });
}

/** A variant's rules replace the base rules of the same page (`match` and `when`), in place; the rest are appended. */
export function applyVariant(base: readonly ScaPageRule[], variant: readonly ScaPageRule[]): ScaPageRule[] {
  const samePage = (a: ScaPageRule, b: ScaPageRule) => a.match === b.match && a.when === b.when;
  const replaced = base.map((rule) => variant.find((v) => samePage(v, rule)) ?? rule);
  return [...replaced, ...variant.filter((v) => !base.some((rule) => samePage(rule, v)))];
}

/** `{{psu.nationalId}}` → the value at that path; an unknown name is a configuration error, not an empty string. */
export function expand(template: string, variables: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_whole, path: string) => {
    let value: unknown = variables;
    for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new ScaFlowError(`SCA step uses {{${path}}}, which the target's configuration does not define`, []);
  });
}

/** URL globs: `**` matches anything, `*` anything but `/`; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The redirect is recognised by origin and path; the bank appends its own query to ours. */
export function redirectMatcher(redirectUri: string): (url: string) => boolean {
  const expected = new URL(redirectUri);
  return (candidate) => {
    try {
      const url = new URL(candidate);
      return url.origin === expected.origin && url.pathname === expected.pathname;
    } catch {
      return false;
    }
  };
}

/** Decided by what is observed, not by an error's wording: can the SCA site be reached at all? */
async function unreachableOr(kind: ScaFlowFailure, url: string, options: ScaFlowOptions): Promise<ScaFlowFailure> {
  const reachable = await options.probe?.(url).then(
    () => true,
    () => false,
  );
  return reachable === false ? 'network' : kind;
}

/** The flow went nowhere; when the browser shows its own error page (a navigation failed), the site may have gone away. */
async function stuck(
  page: Page,
  waitingFor: readonly ScaPageRule[],
  pages: string[],
  options: ScaFlowOptions,
  failedNavigation: { url: string; reason: string } | undefined,
): Promise<ScaFlowError> {
  const onErrorPage = page.url().startsWith('chrome-error:');
  if (onErrorPage && failedNavigation && CERTIFICATE_ERROR.test(failedNavigation.reason)) {
    return new ScaFlowError(
      `the browser refused the TLS certificate of ${failedNavigation.url} (${failedNavigation.reason}) during SCA: it is not valid for that host under the bank's CA`,
      pages,
      'network',
    );
  }
  const kind = onErrorPage ? await unreachableOr('stuck', failedNavigation?.url ?? pages.at(-1) ?? options.href, options) : 'stuck';
  const failure = onErrorPage && failedNavigation ? ` (loading ${failedNavigation.url} failed: ${failedNavigation.reason})` : '';
  return new ScaFlowError(`${await describeStuckPage(page, waitingFor)}${failure}`, pages, kind);
}

/** Chromium's net errors for a certificate it does not accept (wrong host, unknown issuer, expired…). */
const CERTIFICATE_ERROR = /net::ERR_CERT_[A-Z_]+/;

async function describeStuckPage(page: Page, waitingFor: readonly ScaPageRule[]): Promise<string> {
  // What the page already shows, read without waiting for it: the page is the one the flow stopped at, and a
  // wait with a time limit (200 ms here before) lost the text on a loaded machine.
  const shown = (
    await page
      .locator('[role=alert], .error, #error')
      .allTextContents()
      .catch(() => [])
  ).find((text) => text.trim() !== '');
  const rules = waitingFor.map(describeRule).join(', ');
  return [
    `SCA did not reach TPP-Redirect-URI; the browser is at ${page.url()}`,
    rules ? `no configured page rule matches it (waiting for: ${rules})` : 'all page rules ran',
    shown ? `the page shows: ${shown.trim()}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** A rule as a person finds it in targets.yaml: its URL glob, and what the page must show. */
export function describeRule(rule: ScaPageRule): string {
  return rule.when === undefined ? rule.match : `${rule.match} showing ${rule.when}`;
}
