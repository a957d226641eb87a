// Time helpers. Business dates ("today", execution dates, batch run times) are Norwegian
// local time (Europe/Oslo); date-times in JSON are written in UTC as YYYY-MM-DDThh:mm:ss+00:00.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const osloFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface LocalParts {
  y: number;
  m: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

function osloParts(ms: number): LocalParts {
  const parts: Record<string, number> = {};
  for (const p of osloFormat.formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { y: parts.year ?? 1970, m: parts.month ?? 1, d: parts.day ?? 1, h: parts.hour ?? 0, mi: parts.minute ?? 0, s: parts.second ?? 0 };
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** The Oslo calendar date of an instant, YYYY-MM-DD. */
export function osloDate(ms: number): string {
  const p = osloParts(ms);
  return `${pad(p.y, 4)}-${pad(p.m)}-${pad(p.d)}`;
}

/** The UTC instant of hour:00 local Oslo time on the given date. */
export function osloLocalToUtc(date: string, hour: number): number {
  const t = parseIsoDate(date) ?? 0;
  const guess = t + hour * HOUR_MS;
  const offsetOf = (ms: number): number => {
    const p = osloParts(ms);
    return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - Math.floor(ms / 1000) * 1000;
  };
  let utc = guess - offsetOf(guess);
  utc = guess - offsetOf(utc);
  return utc;
}

/** YYYY-MM-DDThh:mm:ss+00:00 */
export function isoDateTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Parses a strict ISO 8601 calendar date; returns its UTC midnight, or undefined. */
export function parseIsoDate(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return t;
}

/** Parses an ISO 8601 date-time with an offset or Z; returns ms or undefined. */
export function parseIsoDateTime(s: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

export function addDays(date: string, days: number): string {
  const t = parseIsoDate(date) ?? 0;
  return new Date(t + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday */
export function weekday(date: string): number {
  return new Date(parseIsoDate(date) ?? 0).getUTCDay();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Parses an RFC 7231 IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"). The weekday must agree
 * with the date. Returns ms or undefined.
 */
export function parseHttpDate(s: string): number | undefined {
  const m =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(
      s,
    );
  if (!m) return undefined;
  const [, wd = '', dd = '', mon = '', yyyy = '', hh = '', mi = '', ss = ''] = m;
  const month = MONTHS.indexOf(mon);
  const t = Date.UTC(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss));
  const back = new Date(t);
  if (back.getUTCDate() !== Number(dd) || Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 60) return undefined;
  if (DAYS[back.getUTCDay()] !== wd) return undefined;
  return t;
}
