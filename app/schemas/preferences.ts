import { z } from 'zod';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { THEMES } from '~/lib/theme';

/** The header's language and theme forms (one endpoint, told apart by `intent`). */
export const preferenceSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('locale'), locale: z.enum(SUPPORTED_LOCALES), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal('theme'), theme: z.enum(THEMES), redirectTo: z.string().optional() }),
]);
