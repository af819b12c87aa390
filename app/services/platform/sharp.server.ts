import type sharpModule from 'sharp';

let loading: Promise<typeof sharpModule> | undefined;

/**
 * sharp (libvips), loaded by the first image a process handles: loading it adds about 30 MiB of resident memory,
 * which a server nobody has uploaded to since it started should not carry (issue 8: RSS ≤ 250 MiB on PostgreSQL).
 */
export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
