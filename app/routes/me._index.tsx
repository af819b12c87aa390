import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AvatarEditor } from '~/components/avatar-editor';
import {
  AvailabilityCard,
  EmailCard,
  IdVerificationCard,
  PhotosCard,
  StatsCard,
} from '~/components/profile/profile-cards';
import { ProfileEditForm } from '~/components/profile/profile-edit-form';
import { ProfileIcon } from '~/components/profile/icons';
import {
  EarningsPanel,
  OrdersPanel,
  ProfileDetails,
  ProfileTabNav,
  ReviewsPanel,
} from '~/components/profile/profile-tabs';
import { PROFILE_TABS, type ProfileTab, type ProfileUser } from '~/components/profile/types';
import { getFixedT } from '~/i18n/i18n.server';
import { requireUser } from '~/http/auth.server';
import { formatTaipeiDate } from '~/lib/dates';
import { replyWithError, forwardRetryAfter } from '~/http/forms.server';
import { pageMeta } from '~/lib/meta';
import { redirectWithToast } from '~/http/toast.server';
import { profileSchemaFor } from '~/schemas/profile';
import { AppError } from '~/services/errors.server';
import {
  countAvailableSlots,
  countGuidePhotos,
  getEarnings,
  getIdVerificationState,
  getUserStats,
  listUserOrders,
  listUserReviews,
  toPublicUser,
  updateProfile,
  type UserRow,
} from '~/services/users.server';

/**
 * /me, the profile (SPEC §2 Profile): a header card, a left column of cards and tabs (`?tab=`), with an
 * edit mode at `?edit=1`. Logged-out visitors go to /login and come back here afterwards.
 * It is an index route (`me._index`) so that /me/avatar (me.avatar.tsx, with its own no-JS confirmation
 * page) is not nested inside this page, which has no <Outlet />.
 */

/** The page's view of the account: the API's user, under the names the profile components use. */
function toProfileUser(user: UserRow): ProfileUser {
  const publicUser = toPublicUser(user);
  return { ...publicUser, avatarUrl: publicUser.avatar, emailVerifiedAt: publicUser.emailVerificationDate };
}

/** The tab from `?tab=`: unknown values, and earnings for anyone but a guide, fall back to the profile. */
function resolveTab(value: string | null, isGuide: boolean): ProfileTab {
  const tab = PROFILE_TABS.find((t) => t === value) ?? 'profile';
  return tab === 'earnings' && !isGuide ? 'profile' : tab;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const isGuide = user.type === 'guide';
  const isAdmin = user.type === 'admin';
  const editing = url.searchParams.get('edit') === '1';
  const tab = editing ? 'profile' : resolveTab(url.searchParams.get('tab'), isGuide);
  const [t, stats, orders, reviews, earnings, idVerification, availableSlots, photos] = await Promise.all([
    getFixedT(request),
    getUserStats(user.id),
    listUserOrders(user.id),
    listUserReviews(user.id),
    isGuide ? getEarnings(user.id) : null,
    isAdmin ? null : getIdVerificationState(user),
    isGuide ? countAvailableSlots(user.id) : null,
    isGuide ? countGuidePhotos(user.id) : null,
  ]);
  return {
    title: t('profile.title'),
    tab,
    editing,
    user: toProfileUser(user),
    stats,
    orders,
    reviews,
    earnings,
    idVerification,
    availableSlots,
    photos,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await request.formData();
  if (formData.get('intent') !== 'save') throw new Response('Bad Request', { status: 400 });
  const submission = parseWithZod(formData, { schema: profileSchemaFor(user.type) });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  let updated: UserRow;
  try {
    updated = await updateProfile(user, user.id, submission.value);
  } catch (error) {
    if (error instanceof AppError) return replyWithError(request, submission, error);
    // SPEC §8 Profile save: anything unexpected reads '更新失敗'.
    console.error('profile save failed', error);
    const t = await getFixedT(request);
    return data({ result: submission.reply({ formErrors: [t('profile.updateFailed')] }), code: 'SERVER_ERROR' }, { status: 500 });
  }
  const emailChanged = updated.email !== user.email;
  return redirectWithToast('/me', {
    key: emailChanged ? 'profile.savedVerifyEmail' : 'profile.saved',
    type: 'success',
  });
}

export default function Profile() {
  const { tab, editing, user, stats, orders, reviews, earnings, idVerification, availableSlots, photos } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const isGuide = user.type === 'guide';
  const isAdmin = user.type === 'admin';
  // A refused save comes back on the same page: stay in edit mode with what was typed.
  const showEdit = editing || Boolean(actionData?.result);

  const tabs: { tab: ProfileTab; count?: number }[] = [
    { tab: 'profile' },
    { tab: 'orders', count: orders.length },
    { tab: 'reviews', count: reviews.received.length + reviews.given.length },
    ...(isGuide ? [{ tab: 'earnings' as const }] : []),
  ];

  return (
    <div className="profile-page">
      <header className="card profile-header">
        <div className="profile-avatar">
          <AvatarEditor avatarUrl={user.avatarUrl} name={user.name} />
        </div>
        <div className="profile-identity">
          <h1 id="profile-name">{user.name}</h1>
          <ul className="profile-badges" aria-label={t('profile.badges.label')}>
            {isAdmin ? (
              <li className="badge badge-admin">{t('profile.adminBadge')}</li>
            ) : (
              <>
                <li className={`badge ${user.isEmailVerified ? 'badge-ok' : 'badge-off'}`}>
                  {t(user.isEmailVerified ? 'profile.badges.emailVerified' : 'profile.badges.emailUnverified')}
                </li>
                <li className={`badge ${user.isIdVerified ? 'badge-ok' : 'badge-off'}`}>
                  {t(user.isIdVerified ? 'profile.badges.idVerified' : 'profile.badges.idUnverified')}
                </li>
              </>
            )}
            {!isAdmin && <li className="badge badge-role">{t(`profile.types.${user.type}`)}</li>}
          </ul>
          <p className={user.bio ? 'profile-bio' : 'profile-bio muted'}>{user.bio || t('profile.bioPlaceholder')}</p>
          <ul className="profile-meta small">
            <li>
              <span className="visually-hidden">{t('profile.email')}: </span>
              <ProfileIcon name="mail" />
              <span className="profile-email">{user.email}</span>
            </li>
            {isGuide && user.city && (
              <li>
                <span className="visually-hidden">{t('profile.city')}: </span>
                <ProfileIcon name="pin" />
                {t(`cities.${user.city}`)}
              </li>
            )}
            <li>
              <ProfileIcon name="calendar" />
              {t('profile.joined', { date: formatTaipeiDate(user.registerDate, i18n.language) })}
            </li>
          </ul>
        </div>
        {!showEdit && (
          <div className="profile-actions">
            <Link to="/me?edit=1" className="button">
              {t('profile.edit')}
            </Link>
            {isGuide && (
              <Link to="/guide-availability" className="button button-secondary">
                {t('profile.manageAvailability')}
              </Link>
            )}
          </div>
        )}
      </header>

      <div className="profile-layout">
        <div className="profile-main">
          <ProfileTabNav tabs={tabs} active={showEdit ? 'profile' : tab} />
          {showEdit ? (
            <ProfileEditForm user={user} lastResult={actionData?.result} />
          ) : tab === 'orders' ? (
            <OrdersPanel orders={orders} />
          ) : tab === 'reviews' ? (
            <ReviewsPanel reviews={reviews} />
          ) : tab === 'earnings' && earnings ? (
            <EarningsPanel earnings={earnings} />
          ) : (
            <ProfileDetails user={user} />
          )}
        </div>
        <aside className="profile-sidebar">
          {idVerification && <IdVerificationCard user={user} info={idVerification} />}
          {!isAdmin && <EmailCard user={user} />}
          <StatsCard user={user} stats={stats} />
          {isGuide && availableSlots !== null && <AvailabilityCard count={availableSlots} />}
          {isGuide && photos && <PhotosCard photos={photos} />}
        </aside>
      </div>
    </div>
  );
}
