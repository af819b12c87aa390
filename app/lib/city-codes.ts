/** Cities a guide can work in. Stored as codes; the display name comes from i18n (`cities.<code>`). */
export const CITY_CODES = [
  'taipei',
  'new_taipei',
  'keelung',
  'taoyuan',
  'hsinchu',
  'taichung',
  'nantou',
  'chiayi',
  'tainan',
  'kaohsiung',
  'pingtung',
  'yilan',
  'hualien',
  'taitung',
  'penghu',
] as const;
export type CityCode = (typeof CITY_CODES)[number];

export function isCityCode(value: unknown): value is CityCode {
  return typeof value === 'string' && (CITY_CODES as readonly string[]).includes(value);
}
