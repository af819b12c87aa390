import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AvatarEditor } from '~/components/avatar-editor';
import {
  AvailabilityCard,
  EmailCard,
  IdVerificationCard,
  StatsCard,
} from '~/components/profile/profile-cards';
import { PhotoGallery } from '~/components/profile/photo-gallery';
import { ProfileEditForm } from '~/components/profile/profile-edit-form';
import { ProfileIcon } from '~/components/profile/icons';
import { PendingEmailCard, type PendingEmailResult } from '~/components/profile/pending-email-card';
import {
  EarningsPanel,
  OrdersPanel,
  ProfileDetails,
  ProfileTabNav,
  ReviewsPanel,
} from '~/components/profile/profile-tabs';
import { PROFILE_TABS, type ProfileTab, type ProfileUser } from '~/components/profile/types';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { clientIp, requireUser } from '~/http/auth.server';
import { formatTaipeiDate } from '~/lib/dates';
import { replyWithError, forwardRetryAfter } from '~/http/forms.server';
import { pageMeta } from '~/lib/meta';
import { redirectWithToast } from '~/http/toast.server';
import { confirmEmailChangeSchema } from '~/schemas/auth';
import { profileSchemaFor } from '~/schemas/profile';
import { AppError } from '~/services/errors.server';
import { countAvailableSlots } from '~/services/availability.server';
import { getIdVerificationState } from '~/services/id-verification.server';
import { listUserOrders } from '~/services/orders.server';
import { listAllGuidePhotos } from '~/services/photos.server';
import { listUserReviews } from '~/services/reviews.server';
import { getEarnings, getUserStats } from '~/services/user-stats.server';
import {
  cancelEmailChange,
  confirmEmailChange,
  emailChangeCooldown,
  resendEmailChangeCode,
  toPublicUser,
  updateProfile,
  type UserRow,
} from '~/services/users.server';
import { normaliseEmail } from '~/lib/email';

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
  const [t, stats, orders, reviews, earnings, idVerification, availableSlots, photos, emailCooldown] = await Promise.all([
    getFixedT(request),
    getUserStats(user.id),
    listUserOrders(user.id),
    listUserReviews(user.id),
    isGuide ? getEarnings(user.id) : null,
    isAdmin ? null : getIdVerificationState(user),
    isGuide ? countAvailableSlots(user.id) : null,
    isGuide ? listAllGuidePhotos(user.id) : null,
    user.pendingEmail ? emailChangeCooldown(user.id) : 0,
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
    emailCooldown,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** The profile page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['profile', 'avatar', 'auth', 'search', 'trust'] };

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get('intent');
  if (intent === 'confirm-email' || intent === 'resend-email-code' || intent === 'cancel-email') {
    return emailChangeAction(request, user, intent, formData, clientIp(context));
  }
  if (intent !== 'save') throw new Response('Bad Request', { status: 400 });
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
  // A new address is pending until its code is entered (the card at the top of /me asks for it).
  const emailRequested = normaliseEmail(submission.value.email) !== normaliseEmail(user.email);
  return redirectWithToast('/me', {
    key: emailRequested ? 'profile.emailChange.requested' : 'profile.saved',
    params: emailRequested && updated.pendingEmail ? { email: updated.pendingEmail } : undefined,
    type: 'success',
  });
}

/** The pending-email card's three forms: confirm with the code, mail a new code, or cancel the change. */
async function emailChangeAction(
  request: Request,
  user: UserRow,
  intent: 'confirm-email' | 'resend-email-code' | 'cancel-email',
  formData: FormData,
  ip: string,
) {
  if (intent === 'cancel-email') {
    await cancelEmailChange(user, user.id);
    return redirectWithToast('/me', { key: 'profile.emailChange.cancelled', type: 'info' });
  }
  if (intent === 'resend-email-code') {
    try {
      await resendEmailChangeCode(user, user.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const t = await getFixedT(request);
      const headers = error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined;
      return data<PendingEmailResult>({ emailForm: true, resendError: t(error.messageKey, error.params) }, { status: error.status, headers });
    }
    return data<PendingEmailResult>({ emailForm: true, resent: true });
  }
  const submission = parseWithZod(formData, { schema: confirmEmailChangeSchema });
  if (submission.status !== 'success') {
    return data<PendingEmailResult>({ emailForm: true, result: submission.reply({ hideFields: ['code'] }) }, { status: 400 });
  }
  try {
    await confirmEmailChange(user, user.id, submission.value, { ip });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // The address went to another account meanwhile: the change is dropped, so the card is gone too.
    if (error.code === 'EMAIL_TAKEN') return redirectWithToast('/me', { key: 'profile.emailChange.taken', type: 'error' });
    const shown = new AppError(error.code, { messageKey: error.messageKey, fieldErrors: { code: [error.messageKey] }, retryAfter: error.retryAfter });
    return replyWithError(request, submission, shown, { hideFields: ['code'], extra: { emailForm: true } });
  }
  return redirectWithToast('/me', { key: 'profile.emailChange.confirmed', type: 'success' });
}

export default function Profile() {
  const { tab, editing, user, stats, orders, reviews, earnings, idVerification, availableSlots, photos, emailCooldown } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const isGuide = user.type === 'guide';
  const isAdmin = user.type === 'admin';
  // The pending-email card's answers are its own; a refused save comes back on the same page: stay in
  // edit mode with what was typed.
  const emailAnswer = actionData && 'emailForm' in actionData ? (actionData as PendingEmailResult) : undefined;
  const saveResult = actionData && !emailAnswer && 'result' in actionData ? actionData.result : undefined;
  const showEdit = editing || Boolean(saveResult);

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

      {user.pendingEmail ? (
        <PendingEmailCard email={user.email} pendingEmail={user.pendingEmail} cooldown={emailCooldown} answer={emailAnswer} />
      ) : null}

      <div className="profile-layout">
        <div className="profile-main">
          <ProfileTabNav tabs={tabs} active={showEdit ? 'profile' : tab} />
          {showEdit ? (
            <ProfileEditForm user={user} lastResult={saveResult} />
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
          {isGuide && photos && <PhotoGallery photos={photos} locked={!user.isIdVerified} />}
        </aside>
      </div>
    </div>
  );
}
