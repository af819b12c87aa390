import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AvatarEditor } from '~/components/avatar-editor';
import { PushSettings } from '~/components/push-settings';
import {
  AvailabilityCard,
  EmailCard,
  IdVerificationCard,
  StatsCard,
} from './__profile-cards';
import { PhotoGallery } from './__photo-gallery';
import { ProfileEditForm } from './__profile-edit-form';
import { ProfileIcon } from './__profile-icons';
import { PendingEmailCard, type PendingEmailResult } from './__pending-email-card';
import { OrdersPanel, ProfileDetails, ProfileTabNav, ReviewsPanel } from './__profile-tabs';
import { EarningsPanel } from './__earnings';
import { payoutAccountAction } from './__earnings.server';
import { PROFILE_TABS, type ProfileTab, type ProfileUser } from './__profile-types';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { logError } from '~/services/platform/log.server';
import { clientIp, requireUser } from '~/http/session.server';
import { formatTaipeiDate } from '~/lib/dates';
import { attempt, errorMessage, forwardRetryAfter, parseForm, replyWithError, retryAfterHeaders, reworded, type Outcome } from '~/http/forms.server';
import { pageMeta } from '~/lib/meta';
import { redirectWithToast } from '~/http/toast.server';
import { invariantResponse, readForm } from '~/http/page.server';
import { confirmEmailChangeSchema } from '~/schemas/account-forms';
import { profileSchemaFor } from '~/schemas/profile';
import { countAvailableSlots } from '~/services/catalogue/availability.server';
import { getIdVerificationState } from '~/services/trust/id-verification.server';
import { listUserOrders } from '~/services/booking/orders.server';
import { listAllGuidePhotos } from '~/services/trust/photos.server';
import { listUserReviews } from '~/services/booking/reviews.server';
import { getEarnings, getUserStats } from '~/services/booking/user-stats.server';
import {
  cancelEmailChange,
  confirmEmailChange,
  emailChangeCooldown,
  resendEmailChangeCode,
  toPublicUser,
  updateProfile,
  type UserRow,
} from '~/services/accounts/users.server';
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
    isGuide && tab === 'earnings' ? getEarnings(user.id) : null,
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
export const handle: I18nHandle = { i18n: ['profile', 'avatar', 'auth', 'search', 'trust', 'push'] };

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  const intent = formData.get('intent');
  if (intent === 'confirm-email' || intent === 'resend-email-code' || intent === 'cancel-email') {
    return emailChangeAction(request, user, intent, formData, clientIp(context));
  }
  if (intent === 'payout-account' && user.type === 'guide') return payoutAccountAction(request, user, formData);
  invariantResponse(intent === 'save', 'Bad Request', { status: 400 });
  const parsed = parseForm(formData, profileSchemaFor(user.type));
  if (!parsed.ok) return parsed.reply;
  const { submission } = parsed;
  let saved: Outcome<UserRow>;
  try {
    saved = await attempt(() => updateProfile(user, user.id, parsed.value));
  } catch (error) {
    // SPEC §8 Profile save: anything unexpected reads '更新失敗'.
    logError('profile save failed', error, { requestId: context.requestId });
    const t = await getFixedT(request);
    return data({ result: submission.reply({ formErrors: [t('profile.updateFailed')] }), code: 'SERVER_ERROR' }, { status: 500 });
  }
  if (!saved.ok) return replyWithError(request, submission, saved.error);
  const updated = saved.value;
  // A new address is pending until its code is entered (the card at the top of /me asks for it).
  const emailRequested = normaliseEmail(parsed.value.email) !== normaliseEmail(user.email);
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
    const resent = await attempt(() => resendEmailChangeCode(user, user.id));
    if (!resent.ok) {
      const resendError = await errorMessage(request, resent.error);
      return data<PendingEmailResult>({ emailForm: true, resendError }, { status: resent.error.status, headers: retryAfterHeaders(resent.error) });
    }
    return data<PendingEmailResult>({ emailForm: true, resent: true });
  }
  const parsed = parseForm(formData, confirmEmailChangeSchema, { hideFields: ['code'] });
  if (!parsed.ok) return data<PendingEmailResult>({ emailForm: true, result: parsed.submission.reply({ hideFields: ['code'] }) }, { status: 400 });
  const confirmed = await attempt(() => confirmEmailChange(user, user.id, parsed.value, { ip }));
  if (!confirmed.ok) {
    const { error } = confirmed;
    // The address went to another account meanwhile: the change is dropped, so the card is gone too.
    if (error.code === 'EMAIL_TAKEN') return redirectWithToast('/me', { key: 'profile.emailChange.taken', type: 'error' });
    return replyWithError(request, parsed.submission, reworded(error, error.messageKey, 'code'), { hideFields: ['code'], extra: { emailForm: true } });
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
  const payoutResult = actionData && 'payoutForm' in actionData ? actionData.result : undefined;
  const saveResult = actionData && !emailAnswer && !payoutResult && 'result' in actionData ? actionData.result : undefined;
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
            <EarningsPanel tab={earnings} accountResult={payoutResult} />
          ) : (
            <ProfileDetails user={user} />
          )}
        </div>
        <aside className="profile-sidebar">
          {idVerification && <IdVerificationCard user={user} info={idVerification} />}
          {!isAdmin && <EmailCard user={user} />}
          <StatsCard user={user} stats={stats} />
          <PushSettings />
          {isGuide && availableSlots !== null && <AvailabilityCard count={availableSlots} />}
          {isGuide && photos && <PhotoGallery photos={photos} locked={!user.isIdVerified} />}
        </aside>
      </div>
    </div>
  );
}
