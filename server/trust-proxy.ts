/**
 * TRUST_PROXY as Express reads it: `loopback` (the default: a proxy on the same machine), a comma-separated
 * list of addresses, subnets or names (`loopback, 10.0.0.0/8`), a hop count (`1`), or `false`.
 */
export function trustProxySetting(value: string): string | number | boolean {
  const trimmed = value.trim();
  if (trimmed === 'false' || trimmed === '') return false;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}
