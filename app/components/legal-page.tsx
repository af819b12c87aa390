import { useTranslation } from 'react-i18next';
import { formatTaipeiDate } from '~/lib/dates';
import { Markdown } from './markdown';

export interface LegalDocument {
  title: string;
  content: string;
  version: string;
  updatedAt: string;
  locale: string;
}

export function LegalPage({ document }: { document: LegalDocument | null }) {
  const { t, i18n } = useTranslation();
  if (!document) return <p className="empty">{t('legal.notFound')}</p>;
  return (
    <article className="legal" lang={document.locale}>
      <h1>{document.title}</h1>
      <p className="muted small">
        {t('legal.version', { version: document.version })} · {t('legal.updated', { date: formatTaipeiDate(document.updatedAt, i18n.language) })}
      </p>
      <Markdown>{document.content}</Markdown>
    </article>
  );
}
