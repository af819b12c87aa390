import { stringify } from 'csv-stringify/sync';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import type { CsvExport } from '~/services/exports.server';

/**
 * A CSV export as a streamed download (issue 22, docs/decisions/027-csv-exports.md). Each page the service reads
 * (1,000 rows) becomes one chunk, written by csv-stringify with:
 * - a UTF-8 byte order mark first, so Excel reads Chinese and Japanese text as UTF-8;
 * - formula escaping (`escape_formulas`): a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return
 *   (or the full-width ＝＋－＠) gets a leading single quote, so a spreadsheet shows it as text and never runs it;
 * - the column headers in the admin's language (the language of the page: `lng`, the language cookie, then
 *   Accept-Language).
 * The next page is read only when the previous chunk has been taken (ReadableStream pull), and the writer waits
 * for the socket to drain (patches/@remix-run+node), so memory stays flat however large the file.
 */
export async function csvResponse(request: Request, exp: CsvExport): Promise<Response> {
  const locale = await getLocale(request);
  const t = await getFixedT(locale);
  const prefix = exp.headerPrefix ?? `exports.columns.${exp.kind}`;
  const header = exp.columns.map((c) => t(`${prefix}.${c}`));
  const pages = exp.pages();
  const encoder = new TextEncoder();
  let first = true;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await pages.next();
          const rows = next.done ? [] : next.value;
          if (rows.length > 0 || first) {
            const records = rows.map((r) => exp.columns.map((c) => cell(r[c])));
            const text = stringify(first ? [header, ...records] : records, { bom: first, escape_formulas: true, record_delimiter: 'windows' });
            first = false;
            controller.enqueue(encoder.encode(text));
          }
          if (next.done) controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        // The client went away: stop reading pages.
        await pages.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
  const day = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Taipei' });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exp.kind}-${day}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** true/false as 1/0 (what a spreadsheet sums); null as an empty cell. */
function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  return String(value);
}
