// The Date header in RFC 7231 7.1.1.1 IMF-fixdate form: `Sun, 06 Nov 1994 08:49:37 GMT`.

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export function formatHttpDate(date: Date): string {
  // toUTCString() is specified (ECMA-262 21.4.4.43) to give exactly IMF-fixdate for four-digit years.
  return date.toUTCString();
}

/**
 * The instant an IMF-fixdate names, or undefined when the text is not one.
 * The obsolete RFC 850 and asctime forms RFC 7231 lets recipients accept are
 * rejected: the specification asks senders for the IMF-fixdate form.
 */
export function parseHttpDate(text: string): Date | undefined {
  // Requests signed in the same second carry the same Date: the last one read is kept.
  if (text === lastParsed.text) return lastParsed.date === undefined ? undefined : new Date(lastParsed.date);
  const date = IMF_FIXDATE.test(text) ? new Date(text) : undefined;
  // Formatting back catches impossible dates (31 Feb) and a day name that does not fit the date.
  const valid = date !== undefined && !Number.isNaN(date.getTime()) && formatHttpDate(date) === text ? date : undefined;
  lastParsed = { text, date: valid?.getTime() };
  return valid;
}

let lastParsed: { text: string; date: number | undefined } = { text: '', date: undefined };
