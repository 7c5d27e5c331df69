// Options every CSV this service writes passes to csv-stringify. The one thing to know: a cell
// that starts with =, +, -, @, a tab or a carriage return (or their full-width forms) is written
// with a leading single quote, as OWASP's "CSV Injection" page says, so a spreadsheet shows it as
// text instead of running it as a formula; a number (a negative rate) is left as it is. JSON Lines
// exports keep raw values: they are data for programs, not cells for a spreadsheet.
import type { Options } from 'csv-stringify';

export const CSV_OPTIONS = { header: true, escape_formulas: true } as const satisfies Options;
