import { createContext } from 'react';
import type { i18n as I18n } from 'i18next';

/**
 * Set by entry.server.tsx only: the shared, complete i18next instance of a language. In the browser it is
 * null and the layout uses the one client instance (client.ts).
 */
export const ServerI18nContext = createContext<((locale: string) => I18n) | null>(null);
