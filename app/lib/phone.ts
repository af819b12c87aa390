/** A `tel:` address for a phone number as people write it: the digits and a leading + only (dialers differ on separators). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^0-9+]/g, '')}`;
