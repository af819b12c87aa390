import { stringify } from 'csv-stringify/sync';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { auditActionKey } from '~/lib/audit-details';
import { slotWithHours } from '~/lib/time-slots';
import type { CsvExport, CsvValueKind } from '~/services/admin/exports.server';

type T = Awaited<ReturnType<typeof getFixedT>>;

/** A code as the admin sees it on the pages (issue 35); an unknown code is written as it is. */
const LABELS: Record<CsvValueKind, (t: T, code: string) => string> = {
  orderStatus: (t, v) => t(`account.orderStatus.${v}`, { defaultValue: v }),
  timeSlot: (t, v) => slotWithHours((k) => t(k, { defaultValue: v }), v),
  city: (t, v) => t(`cities.${v}`, { defaultValue: v }),
  role: (t, v) => t(`admin.roles.${v}`, { defaultValue: v }),
  accountState: (t, v) => t(`admin.states.${v}`, { defaultValue: v }),
  yesNo: (t, v) => t(v === 'true' ? 'admin.yes' : 'admin.no'),
  reviewRole: (t, v) => t(`reviews.admin.roles.${v}`, { defaultValue: v }),
  auditAction: (t, v) => t(auditActionKey(v), { defaultValue: v }),
  auditTarget: (t, v) => t(`admin.logs.targets.${v}`, { defaultValue: v }),
};

/**
 * A CSV export as a streamed download (issue 22, docs/decisions/027-csv-exports.md). Each page the service reads
 * (1,000 rows) becomes one chunk, written by csv-stringify with:
 * - a UTF-8 byte order mark first, so Excel reads Chinese and Japanese text as UTF-8;
 * - formula escaping (`escape_formulas`): a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return
 *   (or the full-width ＝＋－＠) gets a leading single quote, so a spreadsheet shows it as text and never runs it;
 * - the column headers in the admin's language (the language of the page: `lng`, the language cookie, then
 *   Accept-Language), and the codes of the columns the export names in `labels` (status, time slot, city, role,
 *   account state, yes/no, action) as the labels the pages show in that language (issue 35).
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
            const records = rows.map((r) => exp.columns.map((c) => labelled(t, exp.labels?.[c], r[c])));
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

/** A labelled column's code as its label; an empty cell stays empty. */
function labelled(t: T, kind: CsvValueKind | undefined, value: unknown): string | number | null {
  if (!kind || value === null || value === undefined || value === '') return cell(value);
  return LABELS[kind](t, String(value));
}

/** true/false as 1/0 (what a spreadsheet sums) where a column has no labels; null as an empty cell. */
function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  return String(value);
}
