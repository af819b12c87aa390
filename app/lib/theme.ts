export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = 'theme';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/**
 * What the toggle switches to, so that a tap from 'auto' always changes what is on screen: from auto to the
 * opposite of what the system shows; from the theme that differs from the system to the other one; from the
 * theme the system shows anyway back to auto. On a light system: auto → dark → light → auto; on a dark one:
 * auto → light → dark → auto. The server cannot know the system's choice, so the header renders both
 * answers and CSS (prefers-color-scheme) shows the right one, with or without JS.
 */
export function nextTheme(theme: Theme, systemDark = false): Theme {
  const system: Theme = systemDark ? 'dark' : 'light';
  if (theme === 'auto') return systemDark ? 'light' : 'dark';
  return theme === system ? 'auto' : system;
}
