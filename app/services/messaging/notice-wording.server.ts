import type { TFunction } from 'i18next';
import type { Locale } from '~/i18n/config';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/dates';
import { slotWithHours } from '~/lib/time-slots';

/**
 * A notification is stored as what happened (its `type` and the facts in `params`) and worded when it is shown,
 * in the reader's language of that moment (issue 19): someone who switches from 中文 to English reads last week's
 * notices in English too. Rows written before `params` existed keep the words stored with them.
 *
 *   order.<kind>  app/locales/<lang>/orders.json notices.<kind>; facts: the order's (OrderNoticeFacts)
 *   trust.<kind>  app/locales/<lang>/trust.json notices.<kind>; facts: what the decision said (a reason)
 *   payout.<kind> app/locales/<lang>/mail.json payout.<kind>; facts: the payout's id and amount (payout-batch.server.ts)
 *   board.<kind>  app/locales/<lang>/board.json notices.<kind>; facts: the post, the reply, the admin's reason
 */
export type NoticeFacts = Record<string, string | number | undefined>;

export function wordNotice(t: TFunction, locale: Locale, type: string, facts: NoticeFacts): { title: string; body: string } {
  const [area, kind] = type.split('.') as [string, string];
  if (area === 'order') {
    const params = {
      id: facts.id,
      date: formatTourDayLong(String(facts.date), locale),
      slot: slotWithHours(t, String(facts.timeSlot)),
      people: facts.numberOfPeople,
      total: formatNtd(Number(facts.totalPrice), locale),
      traveler: facts.travelerName,
      guide: facts.guideName,
      actor: facts.actorName,
      rating: facts.rating ?? '',
    };
    return { title: t(`orders.notices.${kind}.title`, params), body: t(`orders.notices.${kind}.body`, params) };
  }
  if (area === 'payout') {
    const params = { id: facts.payoutId, amount: formatNtd(Number(facts.amount), locale) };
    return { title: t(`mail.payout.${kind}.title`, params), body: t(`mail.payout.${kind}.body`, params) };
  }
  if (area === 'board') return { title: t(`board.notices.${kind}.title`, facts), body: t(`board.notices.${kind}.body`, facts) };
  const params = { ...facts, reason: facts.reason || t('trust.notices.noReason') };
  return { title: t(`trust.notices.${kind}.title`, params), body: t(`trust.notices.${kind}.body`, params) };
}
