import { useTranslation } from 'react-i18next';

/**
 * An ID application's front and back images, side by side (served privately). The admin queue shows them
 * larger and each opens on its own; the applicant sees smaller copies.
 */
export function IdDocuments({
  applicationId,
  documents,
  className,
  width,
  height,
  linked = false,
}: {
  applicationId: number;
  documents: { front: string | null; back: string | null };
  className: string;
  width: number;
  height: number;
  linked?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      {(['front', 'back'] as const).map((side) => {
        const url = documents[side];
        if (!url) return null;
        const image = (
          <img src={url} alt={t('trust.idv.documentAlt', { side: t(`trust.idv.${side}`), id: applicationId })} width={width} height={height} loading="lazy" />
        );
        return (
          <figure key={side}>
            {linked ? (
              <a href={url} target="_blank" rel="noreferrer">
                {image}
              </a>
            ) : (
              image
            )}
            <figcaption className="small muted">{t(`trust.idv.${side}`)}</figcaption>
          </figure>
        );
      })}
    </div>
  );
}
