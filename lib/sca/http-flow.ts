/**
 * SCA without a browser, for targets whose SCA pages work without script (`scaDriver: http` in targets.yaml):
 * the pages are fetched, and their HTML forms filled and submitted, over HTTP, by the same declarative page
 * rules as the browser flow (flow.ts), until the bank sends the PSU to TPP-Redirect-URI. A flow costs a few
 * milliseconds of CPU where Chromium spends about half a second; a gauntlet drives some 1,400 of them.
 *
 * It does what a browser does with a plain form and nothing more: cookies (tough-cookie), redirects (303, and
 * 301/302 after a POST, become a GET; 307/308 resend), the form's entry list as the HTML standard builds it
 * (checked boxes, selected options, the submitter's name and value), urlencoded bodies. A step it cannot do
 * as a browser would (a selector only Playwright knows, a click on an element that is neither a button, a
 * link nor a box, a multipart form) stops the flow as `stuck`, saying so: the target needs the browser.
 * TLS is checked by the caller's dispatcher (the bank's CA, host names verified), as the TPP client's is.
 */
import * as cheerio from 'cheerio';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';
import { CookieJar } from 'tough-cookie';
import { request, type Dispatcher } from 'undici';
import type { ScaStep } from '../targets/target-types.js';
import { ProductionRefusal, scaSiteRefusal, type SafetyPolicy } from '../tpp/index.js';
import {
  captureOf,
  describeRule,
  expand,
  globToRegExp,
  redirectMatcher,
  ScaFlowError,
  type RedirectCapture,
  type ScaFlowOptions,
} from './flow.js';

export interface HttpScaFlowOptions extends Omit<ScaFlowOptions, 'probe'> {
  /** Connections to the bank, trusting its CA (the TPP client's kind of pool). */
  dispatcher: Dispatcher;
  /** The target's safety policy: every request of the flow passes its gate (production: GET and HEAD only). */
  safety: SafetyPolicy;
}

/** A page of the flow as the driver holds it: where it is, how the bank answered, and its document. */
export interface HttpScaPage {
  url: string;
  status: number;
  headers: Record<string, string>;
  html: string;
}

/** Where a navigation ends: a page of the bank, or the redirect to TPP-Redirect-URI (never fetched). */
type Reached = HttpScaPage | { redirect: string };

/** Redirects one navigation follows at most, as browsers bound them. */
const MAX_REDIRECTS = 20;
const SUBMIT_BUTTON = 'button:not([type]), button[type=submit], input[type=submit], input[type=image]';

/** The flow over HTTP; `lastPage` is told of every page reached (the caller keeps the last one as evidence). */
export async function runScaFlowOverHttp(options: HttpScaFlowOptions, lastPage?: (page: HttpScaPage) => void): Promise<RedirectCapture> {
  const browsing = new HttpBrowsing(options, lastPage);
  let at = await browsing.navigate('GET', options.href);
  const pending = options.rules.map((rule) => ({ rule, matches: globToRegExp(rule.match) }));
  const read: Record<string, string> = {};
  while (!('redirect' in at)) {
    const page = at;
    const shown = cheerio.load(page.html);
    const next = pending.find(({ rule, matches }) => matches.test(page.url) && (rule.when === undefined || shown(rule.when).length > 0));
    if (!next)
      throw browsing.stuck(
        page,
        pending.map((p) => describeRule(p.rule)),
      );
    if (options.stopAtErrorPage && page.status >= 400)
      throw new ScaFlowError(`the bank answered ${page.url} with HTTP ${page.status}`, browsing.pages, 'refused');
    pending.splice(pending.indexOf(next), 1);
    // The page the steps act on: a click that loads another one moves the later steps of the rule there, as in a browser.
    let current = page;
    let document = shown;
    let left: Reached | undefined;
    for (const step of next.rule.steps) {
      let moved: Reached | undefined;
      try {
        // The text as a browser shows it, near enough: runs of white space as one space (innerText collapses them too).
        if ('read' in step)
          read[step.read.as] = single(document, expand(step.read.selector, options.variables), 'read').text().replace(/\s+/g, ' ').trim();
        else moved = await act(browsing, current, document, step, { ...options.variables, read }, options.onTyped);
      } catch (error) {
        // The safety gate's refusal is no step the page lacks: it ends the flow as it is (the scenario is skipped).
        if ((error instanceof ScaFlowError && error.kind !== 'stuck') || error instanceof ProductionRefusal) throw error;
        const what = Object.keys(step)[0] ?? 'step';
        throw new ScaFlowError(
          `SCA step ${what} of the page rule "${next.rule.match}" could not be done at ${current.url}: ${(error as Error).message}`,
          browsing.pages,
        );
      }
      if (moved === undefined) continue;
      left = moved;
      if ('redirect' in moved) break;
      current = moved;
      document = cheerio.load(current.html);
    }
    // Steps that leave the page where it was: a browser would wait for a navigation that never comes.
    if (!left)
      throw new ScaFlowError(
        `SCA did not reach TPP-Redirect-URI: the steps of the page rule "${next.rule.match}" did not leave ${page.url}`,
        browsing.pages,
      );
    at = left;
  }
  return captureOf(at.redirect, browsing.pages, read);
}

/** Opens `href` as a browser's address bar would: the page it ends on, redirects followed. */
export async function openOverHttp(
  options: Pick<HttpScaFlowOptions, 'dispatcher' | 'timeoutMs' | 'redirectUri' | 'safety'>,
  href: string,
): Promise<Reached> {
  return new HttpBrowsing(options).navigate('GET', href);
}

/** One step on the current document; a navigation it caused is returned. */
async function act(
  browsing: HttpBrowsing,
  page: HttpScaPage,
  document: CheerioAPI,
  step: Exclude<ScaStep, { read: unknown }>,
  variables: Record<string, unknown>,
  onTyped?: (value: string) => void,
) {
  const typed = (template: string) => {
    const value = expand(template, variables);
    onTyped?.(value);
    return value;
  };
  if ('fill' in step) {
    const field = single(document, step.fill.selector, 'fill');
    if (field.is('textarea')) field.text(typed(step.fill.value));
    else if (
      field.is(
        'input:not([type]), input[type=text], input[type=password], input[type=email], input[type=tel], input[type=number], input[type=search], input[type=url], input[type=date], input[type=hidden]',
      )
    )
      field.attr('value', typed(step.fill.value));
    else throw new Error(`${step.fill.selector} is ${describe(field)}, which cannot be filled`);
    return undefined;
  }
  if ('select' in step) {
    const list = single(document, step.select.selector, 'select');
    if (!list.is('select')) throw new Error(`${step.select.selector} is ${describe(list)}, not a select`);
    const wanted = typed(step.select.value);
    // Playwright's selectOption matches an option by its value or its label.
    const option = list
      .find('option')
      .filter((_i, o) => optionValue(document(o)) === wanted || document(o).text().trim() === wanted)
      .first();
    if (option.length === 0) throw new Error(`${step.select.selector} has no option "${wanted}"`);
    if (list.attr('multiple') === undefined) list.find('option').removeAttr('selected');
    option.attr('selected', '');
    return undefined;
  }
  if ('check' in step || 'uncheck' in step) {
    const { selector, all } = 'check' in step ? step.check : step.uncheck;
    const boxes = all ? document(resolveSelector(expand(selector, variables)).css) : single(document, expand(selector, variables), 'check');
    boxes.each((_i, box) => setChecked(document, document(box), 'check' in step));
    return undefined;
  }
  if ('click' in step) {
    const clicked = single(document, expand(step.click.selector, variables), 'click');
    // A click on a label is a click on its control.
    const target = clicked.is('label') ? labelled(document, clicked) : clicked;
    if (target.is('input[type=checkbox]')) {
      setChecked(document, target, target.attr('checked') === undefined);
      return undefined;
    }
    if (target.is('input[type=radio]')) {
      setChecked(document, target, true);
      return undefined;
    }
    if (target.is(SUBMIT_BUTTON)) return browsing.submit(page, document, target);
    const link = target.closest('a[href]');
    if (link.length > 0) return browsing.navigate('GET', new URL(link.attr('href') as string, baseUrlOf(document, page.url)).href);
    throw new Error(
      `${describe(target)} does nothing without script (not a submit button, a link or a box): the target needs the browser driver`,
    );
  }
  if (step.wait.selector && single(document, step.wait.selector, 'wait').length === 0)
    throw new Error(`${step.wait.selector} is not on the page`);
  if (step.wait.url && !globToRegExp(step.wait.url).test(page.url)) throw new Error(`the page is ${page.url}, not ${step.wait.url}`);
  return undefined;
}

function labelled(document: CheerioAPI, label: Cheerio<AnyNode>): Cheerio<AnyNode> {
  const id = label.attr('for');
  const control =
    id === undefined
      ? label.find('input, select, textarea, button').first()
      : document('[id]')
          .filter((_i, node) => document(node).attr('id') === id)
          .first();
  return control.length > 0 ? control : label;
}

/** A check box or radio button set as a click would leave it (a radio button unchecks the others of its group). */
function setChecked(document: CheerioAPI, box: Cheerio<AnyNode>, checked: boolean): void {
  if (!box.is('input[type=checkbox], input[type=radio]')) throw new Error(`${describe(box)} is not a check box or a radio button`);
  if (checked && box.is('input[type=radio]')) {
    const name = box.attr('name');
    const group = box
      .closest('form')
      .find('input[type=radio]')
      .filter((_i, other) => name !== undefined && document(other).attr('name') === name);
    group.removeAttr('checked');
  }
  if (checked) box.attr('checked', '');
  else box.removeAttr('checked');
}

/**
 * A Playwright selector as far as it is CSS: `css=` parts, chained with `>>`, and `nth=N` picking one of
 * the matches. Playwright's own engines (text=, role=, xpath=, :has-text…) need the browser.
 */
function resolveSelector(selector: string): { css: string; nth?: number } {
  const parts = selector.split('>>').map((part) => part.trim());
  let css = '';
  let nth: number | undefined;
  for (const part of parts) {
    const index = /^nth=(-?\d+)$/.exec(part);
    if (index && nth === undefined) nth = Number(index[1]);
    else if (
      nth === undefined &&
      !/^(?:text|role|xpath|id|data-testid|internal:[\w-]+)=/.test(part) &&
      !/:(?:has-text|text|text-is|text-matches|visible|right-of|left-of|above|below|near)\(|:visible\b/.test(part)
    )
      css = [css, part.replace(/^css=/, '')].filter(Boolean).join(' ');
    else
      throw new ScaFlowError(
        `the selector "${selector}" is Playwright's, not CSS: the http SCA driver takes CSS selectors and ">> nth=N"; the target needs the browser driver`,
        [],
      );
  }
  return nth === undefined ? { css } : { css, nth };
}

/** The one element a step acts on; like Playwright's strict locators, none or several is an error. */
function single(document: CheerioAPI, selector: string, action: string): Cheerio<AnyNode> {
  const { css, nth } = resolveSelector(selector);
  let found: Cheerio<AnyNode>;
  try {
    found = document(css);
  } catch (error) {
    throw new Error(`the selector "${selector}" is not CSS the driver can read: ${(error as Error).message}`);
  }
  if (nth !== undefined) found = found.eq(nth);
  if (found.length === 0) throw new Error(`${action}: "${selector}" matches nothing on the page`);
  if (found.length > 1)
    throw new Error(`${action}: "${selector}" matches ${found.length} elements (a step acts on one; add ">> nth=0" or "all")`);
  return found;
}

function describe(element: Cheerio<AnyNode>): string {
  const node = element.get(0);
  if (!node || !('tagName' in node)) return 'nothing';
  const id = element.attr('id');
  const type = element.attr('type');
  return `<${node.tagName}${type ? ` type=${type}` : ''}${id ? ` id=${id}` : ''}>`;
}

function optionValue(option: Cheerio<AnyNode>): string {
  return option.attr('value') ?? option.text().trim();
}

function baseUrlOf(document: CheerioAPI, pageUrl: string): string {
  const base = document('base[href]').first().attr('href');
  return base === undefined ? pageUrl : new URL(base, pageUrl).href;
}

/**
 * The entry list a browser submits for `form` (HTML, "constructing the entry list"): named, enabled controls;
 * boxes only when checked ("on" without a value); the selected options (the first one where a single list
 * has none selected); the submitter alone among the buttons.
 */
function entryList(document: CheerioAPI, form: Cheerio<AnyNode>, submitter: Cheerio<AnyNode>): [string, string][] {
  const entries: [string, string][] = [];
  form.find('input, select, textarea, button').each((_i, node) => {
    const control = document(node);
    const name = control.attr('name');
    if (!name || control.attr('disabled') !== undefined || control.closest('fieldset[disabled]').length > 0) return;
    if (control.is('button, input[type=submit], input[type=image], input[type=reset], input[type=button]')) {
      if (node !== submitter.get(0)) return;
      if (control.is('input[type=image]')) entries.push([`${name}.x`, '0'], [`${name}.y`, '0']);
      else entries.push([name, control.attr('value') ?? '']);
      return;
    }
    if (control.is('input[type=checkbox], input[type=radio]')) {
      if (control.attr('checked') !== undefined) entries.push([name, control.attr('value') ?? 'on']);
      return;
    }
    if (control.is('input[type=file]')) throw new Error(`the form has a file field (${name}): the target needs the browser driver`);
    if (control.is('select')) {
      const options = control.find('option').filter((_j, o) => document(o).attr('disabled') === undefined);
      const selected = options.filter('[selected]');
      const chosen = selected.length > 0 ? selected : control.attr('multiple') === undefined ? options.first() : selected;
      chosen.each((_j, o) => void entries.push([name, optionValue(document(o))]));
      return;
    }
    entries.push([name, control.is('textarea') ? control.text() : (control.attr('value') ?? '')]);
  });
  return entries;
}

/** One PSU's browsing: its cookies, the pages it went through, the deadline of the flow. */
class HttpBrowsing {
  readonly pages: string[] = [];
  private readonly jar = new CookieJar();
  private readonly deadline: number;
  private readonly isRedirect: (url: string) => boolean;

  constructor(
    private readonly options: Pick<HttpScaFlowOptions, 'dispatcher' | 'timeoutMs' | 'redirectUri' | 'safety'>,
    private readonly lastPage?: (page: HttpScaPage) => void,
  ) {
    this.deadline = Date.now() + options.timeoutMs;
    this.isRedirect = redirectMatcher(options.redirectUri);
  }

  /** Submits the submitter's form as a browser would. */
  async submit(page: HttpScaPage, document: CheerioAPI, submitter: Cheerio<AnyNode>) {
    const form = submitter.closest('form');
    if (form.length === 0) throw new Error(`${describe(submitter)} is in no form: the target needs the browser driver`);
    const method = (submitter.attr('formmethod') ?? form.attr('method') ?? 'get').toUpperCase();
    const enctype = submitter.attr('formenctype') ?? form.attr('enctype') ?? 'application/x-www-form-urlencoded';
    if (enctype !== 'application/x-www-form-urlencoded' && method === 'POST')
      throw new Error(`the form is sent as ${enctype}: the target needs the browser driver`);
    const action = new URL(submitter.attr('formaction') ?? form.attr('action') ?? '', baseUrlOf(document, page.url));
    const body = new URLSearchParams(entryList(document, form, submitter)).toString();
    if (method === 'POST') return this.navigate('POST', action.href, body);
    action.search = body;
    return this.navigate('GET', action.href);
  }

  /** A navigation: redirects followed until a page, or the redirect to TPP-Redirect-URI (never fetched). */
  async navigate(method: string, href: string, body?: string): Promise<Reached> {
    let url = href;
    let form = body;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (this.isRedirect(url)) return { redirect: url };
      const response = await this.fetch(method, url, form);
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).href;
        if (response.status === 303 || (method === 'POST' && (response.status === 301 || response.status === 302))) {
          method = 'GET';
          form = undefined;
        }
        continue;
      }
      const page = { url, ...response };
      this.pages.push(url);
      this.lastPage?.(page);
      return page;
    }
    throw new ScaFlowError(`SCA did not reach TPP-Redirect-URI: more than ${MAX_REDIRECTS} redirects from ${href}`, this.pages);
  }

  stuck(page: HttpScaPage, waitingFor: readonly string[]): ScaFlowError {
    const shown = cheerio.load(page.html)('[role=alert], .error, #error').first().text().trim();
    const rules = waitingFor.join(', ');
    return new ScaFlowError(
      [
        `SCA did not reach TPP-Redirect-URI; the PSU is at ${page.url} (HTTP ${page.status})`,
        rules ? `no configured page rule matches it (waiting for: ${rules})` : 'all page rules ran',
        shown ? `the page shows: ${shown}` : '',
      ]
        .filter(Boolean)
        .join('; '),
      this.pages,
    );
  }

  private async fetch(method: string, url: string, body: string | undefined): Promise<Omit<HttpScaPage, 'url'>> {
    const refusal = scaSiteRefusal(this.options.safety, method, url);
    if (refusal !== undefined) throw new ProductionRefusal(refusal);
    const remaining = Math.max(1, this.deadline - Date.now());
    const cookie = await this.jar.getCookieString(url);
    try {
      const response = await request(url, {
        method,
        dispatcher: this.options.dispatcher,
        headers: {
          accept: 'text/html,application/xhtml+xml',
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(body === undefined ? {} : { body }),
        headersTimeout: remaining,
        bodyTimeout: remaining,
        signal: AbortSignal.timeout(remaining),
      });
      const setCookies = response.headers['set-cookie'];
      for (const value of typeof setCookies === 'string' ? [setCookies] : (setCookies ?? []))
        await this.jar.setCookie(value, url, { ignoreError: true });
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
      );
      return { status: response.statusCode, headers, html: await response.body.text() };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      const certificate = /CERT|SELF_SIGNED|ERR_TLS|UNABLE_TO/.test(reason);
      throw new ScaFlowError(
        certificate
          ? `the TLS certificate of ${url} was refused (${reason}) during SCA: it is not valid for that host under the bank's CA`
          : `could not load ${url} during SCA: ${reason} ${(error as Error).message}`,
        this.pages,
        'network',
      );
    }
  }
}
