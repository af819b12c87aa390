import { formatTaipeiDateTime } from './dates';
import { formatNtd } from './money';
import { slotWithHours } from './time-slots';

/** An audit entry as the admin's pages read it (the log, a user's trail). */
export interface AuditEntryView {
  id: number;
  at: string;
  action: string;
  actorId: number | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown> | null;
}

/**
 * What an audit log entry's details say, as a person reads them (issue 35): "field: before → after" for a change,
 * "field: value" for a fact, never raw JSON. The details are whatever recordAudit was given; the shapes written
 * today are:
 * - `{ before, after }` objects (banners): one change line per field that differs; only `after` (created) or only
 *   `before` (deleted) gives the non-empty fields as facts;
 * - `from`/`to` (orders' status, a role, a banner's position), `previousStatus`/`status`, `previousVersion`/`version`:
 *   one change line;
 * - `guide.suspend`/`guide.reinstate` with `before`: the standing from → to;
 * - `filters` (exports): each filter as a fact; `fields` (a profile change): the changed fields' names;
 * - anything else: a fact each.
 */
/** The i18n key of an action's label (entries of actions no longer written fall back to the code). */
export const auditActionKey = (action: string) => `admin.logs.actions.${action}`;

export type AuditLine = { field: string; before: unknown; after: unknown; change: true } | { field: string; value: unknown; change?: false };

/** The field a from/to pair is about, by action. */
function fromToField(action: string): string {
  if (action === 'user.role_change') return 'role';
  if (action === 'banner.move') return 'position';
  if (action.startsWith('order.')) return 'status';
  return 'value';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => v === null || v === undefined || v === '';
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function auditLines(action: string, details: Record<string, unknown> | null | undefined): AuditLine[] {
  if (!details) return [];
  const lines: AuditLine[] = [];
  const rest = { ...details };
  const { before, after } = details;
  if (isRecord(before) || isRecord(after)) {
    delete rest.before;
    delete rest.after;
    if (isRecord(before) && isRecord(after)) {
      for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (!same(before[field], after[field])) lines.push({ field, before: before[field], after: after[field], change: true });
      }
    } else {
      const only = (isRecord(after) ? after : before) as Record<string, unknown>;
      for (const [field, value] of Object.entries(only)) if (!isEmpty(value)) lines.push({ field, value });
    }
  }
  const pair = (from: string, to: string, field: string) => {
    if (!(from in rest) && !(to in rest)) return;
    lines.push({ field, before: rest[from], after: rest[to], change: true });
    delete rest[from];
    delete rest[to];
  };
  if (action === 'guide.suspend' || action === 'guide.reinstate') {
    if ('before' in rest) {
      lines.push({ field: 'guideStatus', before: rest.before, after: action === 'guide.suspend' ? 'suspended' : 'active', change: true });
      delete rest.before;
    }
  }
  pair('from', 'to', fromToField(action));
  if ('previousStatus' in rest) pair('previousStatus', 'status', 'status');
  if ('previousVersion' in rest) pair('previousVersion', 'version', 'version');
  if (action === 'banner.move') delete rest.direction;
  for (const [field, value] of Object.entries(rest)) {
    if (field === 'filters' && isRecord(value)) {
      for (const [k, v] of Object.entries(value)) lines.push({ field: k, value: v });
    } else lines.push({ field, value });
  }
  return lines;
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** Text longer than this is cut with "…" (a banner's link, a review's comment, a note). */
export const AUDIT_VALUE_MAX = 80;

function shorten(text: string): string {
  const chars = [...text];
  return chars.length > AUDIT_VALUE_MAX ? `${chars.slice(0, AUDIT_VALUE_MAX - 1).join('')}…` : text;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A field's name in the admin's language (the key itself when there is no label). */
export function auditFieldLabel(t: T, field: string): string {
  return t(`admin.logs.fields.${field}`, { defaultValue: field });
}

/** A value as the admin sees it elsewhere: labels for codes, yes/no, Taiwan times, NT$, "—" for nothing. */
export function auditValueText(t: T, lang: string, action: string, field: string, value: unknown): string {
  if (isEmpty(value)) return '—';
  if (typeof value === 'boolean') return t(value ? 'admin.yes' : 'admin.no');
  if (Array.isArray(value)) {
    const items = value.map((v) => (field === 'fields' && typeof v === 'string' ? auditFieldLabel(t, v) : auditValueText(t, lang, action, '', v)));
    return shorten(items.join(', '));
  }
  if (isRecord(value)) {
    return shorten(
      Object.entries(value)
        .map(([k, v]) => `${auditFieldLabel(t, k)}: ${auditValueText(t, lang, action, k, v)}`)
        .join(', '),
    );
  }
  if (typeof value === 'number') return field === 'amount' || field === 'refund' ? formatNtd(value, lang) : String(value);
  const text = String(value);
  const label = (key: string) => t(key, { defaultValue: text });
  switch (field) {
    case 'status':
      if (action.startsWith('order.') || action.startsWith('export.orders')) return label(`account.orderStatus.${text}`);
      if (action.startsWith('user.') || action.startsWith('export.users')) return label(`admin.states.${text}`);
      break;
    case 'guideStatus':
      return label(`admin.logs.guideStatus.${text}`);
    case 'role':
    case 'type':
      if (action.startsWith('user.') || action.startsWith('dev.user') || action.startsWith('export.users')) return label(`admin.roles.${text}`);
      break;
    case 'city':
      return label(`cities.${text}`);
    case 'timeSlot':
      return slotWithHours((k) => t(k, { defaultValue: text }), text);
    case 'via':
      return label(`admin.logs.via.${text}`);
    case 'reason':
      if (action === 'user.login_failed') return label(`admin.logs.loginFailure.${text}`);
      break;
  }
  if (ISO_TIME.test(text) && !Number.isNaN(Date.parse(text))) return formatTaipeiDateTime(text, lang);
  return shorten(text);
}
