import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { useLanguageList } from '~/components/guide-card';
import { Stars } from '~/components/stars';
import { formatTaipeiDate, formatTaipeiDateTime } from '~/lib/dates';
import { DEFAULT_MAX_GROUP_SIZE } from '~/lib/group-size';
import { formatNtd } from '~/lib/money';
import type { ProfileTab, ProfileUser, UserOrderSummary, UserReview } from './__profile-types';
import { slotWithHours } from '~/lib/time-slots';

/** The tab row of /me: plain links (`?tab=`), so each tab has its own address and works without JS. */
export function ProfileTabNav({ tabs, active }: { tabs: { tab: ProfileTab; count?: number }[]; active: ProfileTab }) {
  const { t } = useTranslation();
  return (
    <nav className={`profile-tabs${tabs.length > 3 ? ' profile-tabs-many' : ''}`} aria-label={t('profile.tabs.label')}>
      <ul>
        {tabs.map(({ tab, count }) => (
          <li key={tab}>
            <Link
              to={`/me?tab=${tab}`}
              aria-current={tab === active ? 'page' : undefined}
              preventScrollReset
              className="profile-tab"
            >
              {t(`profile.tabs.${tab}`)}
              {count !== undefined && <span className="tab-count">{count}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Profile view mode: registration date, last login; guides also area, languages, price per slot (with the maximum group size), introduction. */
export function ProfileDetails({ user }: { user: ProfileUser }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const languageList = useLanguageList();
  const notSet = <span className="muted">{t('profile.view.notSet')}</span>;
  return (
    <section className="card profile-panel" aria-labelledby="profile-details-title">
      <h2 id="profile-details-title">{t('profile.view.title')}</h2>
      <dl className="detail-list">
        <div>
          <dt>{t('profile.view.accountType')}</dt>
          <dd>{t(`profile.types.${user.type}`)}</dd>
        </div>
        <div>
          <dt>{t('profile.view.registerDate')}</dt>
          <dd>
            <time dateTime={user.registerDate}>{formatTaipeiDate(user.registerDate, locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('profile.view.lastLogin')}</dt>
          <dd>
            {user.lastLogin ? (
              <time dateTime={user.lastLogin}>{formatTaipeiDateTime(user.lastLogin, locale)}</time>
            ) : (
              <span className="muted">{t('profile.view.neverLoggedIn')}</span>
            )}
          </dd>
        </div>
        {user.type === 'guide' && (
          <>
            <div>
              <dt>{t('profile.view.city')}</dt>
              <dd>{user.city ? t(`cities.${user.city}`) : notSet}</dd>
            </div>
            <div>
              <dt>{t('profile.view.languages')}</dt>
              <dd>{user.language.length ? languageList(user.language) : notSet}</dd>
            </div>
            <div>
              <dt>{t('profile.view.price')}</dt>
              <dd>
                {user.price !== null ? (
                  <>
                    <strong>{formatNtd(user.price, locale)}</strong>
                    {t('guides.pricePerSlot', { count: user.maxGroupSize ?? DEFAULT_MAX_GROUP_SIZE })}
                  </>
                ) : (
                  notSet
                )}
              </dd>
            </div>
            <div className="detail-wide">
              <dt>{t('profile.view.description')}</dt>
              <dd className="description">{user.description || notSet}</dd>
            </div>
          </>
        )}
      </dl>
    </section>
  );
}

export function OrdersPanel({ orders }: { orders: UserOrderSummary[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <section className="card profile-panel" aria-labelledby="orders-title">
      <div className="panel-head">
        <h2 id="orders-title">{t('profile.orders.title')}</h2>
        {orders.length > 0 && (
          <Link to="/orders" className="small">
            {t('profile.orders.viewAll')}
          </Link>
        )}
      </div>
      {orders.length === 0 ? (
        <p className="empty">{t('profile.orders.empty')}</p>
      ) : (
        <ul className="order-list">
          {orders.map((o) => (
            <li key={o.id} className="order-item">
              <div className="order-item-head">
                <Link to={`/orders/${o.id}`} className="order-link">
                  {t('profile.orders.orderId', { id: o.id })}
                </Link>
                <span className={`status-pill status-${o.status}`}>{t(`profile.status.${o.status}`)}</span>
              </div>
              <p className="small muted order-meta">
                <span>
                  <time dateTime={o.date}>{formatTaipeiDate(`${o.date}T12:00:00+08:00`, locale)}</time> · {slotWithHours(t, o.timeSlot)}
                </span>
                <span>{t(o.role === 'guide' ? 'profile.orders.traveler' : 'profile.orders.guide', { name: o.otherPartyName })}</span>
                <span>{formatNtd(o.totalPrice, locale)}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewList({ reviews, direction }: { reviews: UserReview[]; direction: 'received' | 'given' }) {
  const { t, i18n } = useTranslation();
  if (reviews.length === 0) {
    return <p className="empty">{t(direction === 'received' ? 'profile.reviews.emptyReceived' : 'profile.reviews.emptyGiven')}</p>;
  }
  return (
    <ul className="review-list">
      {reviews.map((r) => (
        <li key={r.id} className="review">
          <p className="review-head">
            <strong>
              {direction === 'received'
                ? t('profile.reviews.from', { name: r.reviewerName })
                : t('profile.reviews.to', { name: r.revieweeName })}
            </strong>{' '}
            <Stars rating={r.rating} />
          </p>
          {r.comment && <p className="review-comment">{r.comment}</p>}
          {r.isHidden && <p className="small status-warn">{t('profile.reviews.hidden')}</p>}
          <p className="muted small">
            {/* A review's day in Taiwan (SPEC §2), without the time (issue 19). */}
            <time dateTime={r.createdAt}>{formatTaipeiDate(r.createdAt, i18n.language)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}

export function ReviewsPanel({ reviews }: { reviews: { received: UserReview[]; given: UserReview[] } }) {
  const { t } = useTranslation();
  return (
    <div className="profile-panel-stack">
      <section className="card profile-panel" aria-labelledby="reviews-received-title">
        <h2 id="reviews-received-title">
          {t('profile.reviews.received')} <span className="tab-count">{reviews.received.length}</span>
        </h2>
        <ReviewList reviews={reviews.received} direction="received" />
      </section>
      <section className="card profile-panel" aria-labelledby="reviews-given-title">
        <h2 id="reviews-given-title">
          {t('profile.reviews.given')} <span className="tab-count">{reviews.given.length}</span>
        </h2>
        <ReviewList reviews={reviews.given} direction="given" />
      </section>
    </div>
  );
}
