import { useTranslation } from 'react-i18next';
import { useRootData } from '~/lib/root-data';

/** The one-shot message a redirect left in the toast cookie (works without JS: it is server-rendered). */
export function Toasts() {
  const { t } = useTranslation();
  const toast = useRootData()?.toast;
  if (!toast) return null;
  return (
    <div className={`toast toast-${toast.type ?? 'info'}`} role={toast.type === 'error' ? 'alert' : 'status'}>
      {t(toast.key, toast.params)}
    </div>
  );
}
