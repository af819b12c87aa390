import { addDays, todayInTaipei } from '~/lib/dates';
import { createAvailability, createGuide } from '~server/seed/factories';

/** The day the booking tests book: three days ahead, every slot open there. */
export const bookingDay = () => addDays(todayInTaipei(), 3);

/** A listed guide at `price` with every slot of the next five days open. */
export async function bookableGuide(price = 2000) {
  const guide = await createGuide({ price });
  await createAvailability(guide.id, { from: todayInTaipei(), days: 5, price: 1500 });
  return guide;
}
