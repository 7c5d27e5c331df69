// Options every CSV this service writes passes to csv-stringify. RFC 4180: records end with CRLF,
// and a field holding a line break (CR or LF, as an answer's text does) is quoted, so a reader
// that splits records on CRLF or on LF alike reads one record per probe. A cell that starts with
// =, +, -, @, a tab or a carriage return (or their full-width forms) is written with a leading
// single quote, as OWASP's "CSV Injection" page says, so a spreadsheet shows it as text instead
// of running it as a formula; a number (a negative rate) is left as it is. No byte order mark by
// default (a program reading the first header would see it as part of the name); `bom=true` on
// an export adds one so Excel opens the file as UTF-8 (csvOptions). JSON Lines exports keep raw
// values: they are data for programs, not cells for a spreadsheet.
import type { Options } from 'csv-stringify';

export const CSV_OPTIONS = { header: true, escape_formulas: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const satisfies Options;

/** CSV_OPTIONS, with a UTF-8 byte order mark first when the caller asked for one (`bom=true`). */
export const csvOptions = (bom: boolean | undefined) => ({ ...CSV_OPTIONS, bom: bom === true });
