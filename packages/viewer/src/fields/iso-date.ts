/** `YYYY-MM-DD` (years up to six digits, as a date input allows). */
const ISO_DATE = /^(\d{4,6})-(\d{2})-(\d{2})$/;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The UTC midnight of an ISO 8601 calendar date, or null when `value` is not one (a partial entry, 2026-02-30).
 * @example isoDateToUtc('2026-11-22') // Date.UTC(2026, 10, 22)
 */
export function isoDateToUtc(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const exact = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exact ? date.getTime() : null;
}

/**
 * An ISO 8601 date as `locale` writes it (`dateStyle: 'medium'`), or null when `value` is not a whole date. The
 * date is a calendar day, not an instant: it is formatted in UTC, so no time zone moves it to the day before.
 * @example formatIsoDate('2026-11-22', 'de') // '22.11.2026'
 * @example formatIsoDate('2026-11-22', 'en-US') // 'Nov 22, 2026'
 */
export function formatIsoDate(value: string, locale: string): string | null {
  const time = isoDateToUtc(value);
  if (time === null) return null;
  let format = dateFormats.get(locale);
  if (!format) dateFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })));
  return format.format(time);
}
