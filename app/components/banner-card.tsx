import { Link } from '@remix-run/react';
import type { BannerView } from '~/schemas/banners';

/**
 * One home banner as the home page shows it (its picture, title and subtitle, the whole card a link); the admin's
 * preview draws the same card. An https link leaves the site in a plain anchor; a path stays in the app.
 */
export function BannerCard({ banner, eager, preview = false }: { banner: BannerView; eager: boolean; preview?: boolean }) {
  const content = (
    <>
      {banner.imageUrl && (
        <img
          src={banner.imageUrl}
          alt=""
          width={1200}
          height={400}
          // The first three fill the first screen (one row on a desktop, stacked on a phone): a lazy image
          // there waits for layout, and one of them is the largest paint.
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
      )}
      <span className="banner-text">
        <strong>{banner.title}</strong>
        {banner.subtitle && <span>{banner.subtitle}</span>}
      </span>
    </>
  );
  // A preview is not a way off the admin page: the same card, not a link.
  if (preview) return <div className="banner">{content}</div>;
  const to = banner.linkUrl ?? '/guides';
  if (/^https:/i.test(to)) {
    return (
      <a href={to} className="banner" rel="noopener">
        {content}
      </a>
    );
  }
  return (
    <Link to={to} className="banner">
      {content}
    </Link>
  );
}
