import { z } from 'zod';
import { blankToUndefined, optionalText, textField } from './field-rules';

/**
 * A home banner as an admin writes it (issue 22, docs/decisions/026-banners.md): the title in zh-TW (required) and,
 * optionally, in en and ja; a subtitle in each; a link that stays on this site (a path) or goes to an https page;
 * shown or not, and optionally only from/until a moment (Taiwan time when typed in the form). The same schema reads
 * the admin form and the /api/v1/admin/banners bodies; it also runs in the browser (no server code here).
 */
export const BANNER_TITLE_MAX = 80;
export const BANNER_SUBTITLE_MAX = 200;
export const BANNER_LINK_MAX = 500;
/** The picture as the home page shows it (a 3:1 centre crop, webp). */
export const BANNER_IMAGE_WIDTH = 1200;
export const BANNER_IMAGE_HEIGHT = 400;

/**
 * A same-site path (`/guides?city=hualien`, never `//host`, nor a backslash that browsers read as one) or an https
 * URL with a host. Anything else (javascript:, http:, data:, mailto:) is refused.
 */
export function isBannerLink(value: string): boolean {
  if (/[\s\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DDTHH:mm` typed in the form is Taiwan time; an API client may send a full ISO time with its zone. */
const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseBannerMoment(value: string): Date | undefined {
  const text = value.trim();
  const iso = LOCAL_MINUTE.test(text) ? `${text.length === 16 ? `${text}:00` : text}+08:00` : ZONED.test(text) ? text : undefined;
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A moment as the form's datetime-local value (Taiwan time, to the minute). */
export function bannerMomentInput(date: Date | string | null | undefined): string {
  if (!date) return '';
  return new Date(new Date(date).getTime() + 8 * 3_600_000).toISOString().slice(0, 16);
}

const moment = z.preprocess(
  (v) => (v === null ? undefined : blankToUndefined(v)),
  z
    .string({ error: 'banners.errors.badMoment' })
    .transform((v, ctx) => {
      const date = parseBannerMoment(v);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: 'banners.errors.badMoment' });
        return z.NEVER;
      }
      return date;
    })
    .optional(),
);

const requiredTitle = textField('banners.errors.titleRequired')
  .trim()
  .min(1, { error: 'banners.errors.titleRequired' })
  .max(BANNER_TITLE_MAX, { error: 'banners.errors.titleTooLong' });
const optionalTitle = z.preprocess((v) => (v === null ? undefined : v), optionalText(BANNER_TITLE_MAX));

const subtitle = z.preprocess((v) => (v === null ? undefined : v), optionalText(BANNER_SUBTITLE_MAX));

/** Checkbox "on", or a JSON boolean; absent is off (an unticked box sends nothing). */
const flag = z.preprocess((v) => v === true || v === 'on' || v === 'true' || v === '1', z.boolean());

export const bannerInputSchema = z
  .object({
    title: requiredTitle,
    titleEn: optionalTitle,
    titleJa: optionalTitle,
    subtitle,
    subtitleEn: subtitle,
    subtitleJa: subtitle,
    linkUrl: z.preprocess(
      (v) => (v === null ? undefined : blankToUndefined(v)),
      textField('banners.errors.badLink')
        .trim()
        .max(BANNER_LINK_MAX, { error: 'banners.errors.badLink' })
        .refine(isBannerLink, { error: 'banners.errors.badLink' })
        .optional(),
    ),
    isActive: flag,
    startsAt: moment,
    endsAt: moment,
    /** A picture already stored (kept from the banner or from a preview); a new file replaces it. */
    imageKey: z.preprocess(
      (v) => (v === null ? undefined : blankToUndefined(v)),
      z.string().regex(/^[0-9a-f]{64}$/, { error: 'banners.errors.badImage' }).optional(),
    ),
  })
  .superRefine((value, ctx) => {
    if (value.startsAt && value.endsAt && value.endsAt.getTime() <= value.startsAt.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'banners.errors.untilBeforeFrom' });
    }
  });
export type BannerInput = z.output<typeof bannerInputSchema>;

export const bannerMoveSchema = z.object({
  direction: z.enum(['up', 'down'], { error: 'validation.invalid' }),
});

export const bannerSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  titleEn: z.string().nullable(),
  titleJa: z.string().nullable(),
  subtitle: z.string().nullable(),
  subtitleEn: z.string().nullable(),
  subtitleJa: z.string().nullable(),
  linkUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  imageKey: z.string().nullable(),
  position: z.number().int().describe('1 is shown first'),
  isActive: z.boolean(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  /** Shown on the home page right now: active and inside its dates. */
  live: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Banner = z.infer<typeof bannerSchema>;

/** What the home page shows of a banner, in one language. */
export interface BannerView {
  id: number | string;
  title: string;
  subtitle: string | null;
  linkUrl: string | null;
  imageUrl: string | null;
}
