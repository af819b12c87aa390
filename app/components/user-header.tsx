import { Form, Link, NavLink } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { roleHomePath, type RoleType } from '~/lib/roles';
import { Avatar } from './avatar';
import { LanguageForm, ThemeForm, unreadBadgeText, type Preferences } from './header-tools';
import { Logo } from './logo';

export interface HeaderUserData {
  id: number;
  name: string;
  type: RoleType;
  avatar: string | null;
  isEmailVerified: boolean;
  isIdVerified: boolean;
}

/**
 * Logged in: logo, name, greeting, favorites, orders, role home, language, theme, notification bell with the
 * unread count, avatar with verification badges, logout. Phones get icons with short words under them, JS
 * or not: logo and account icons; the greeting and the settings; then the links (the guide search among
 * them). From 768 px the links carry their text beside the icon.
 */
export function UserHeader({
  user,
  unreadCount,
  unreadMessages = 0,
  locale,
  theme,
  redirectTo,
}: Preferences & { user: HeaderUserData; unreadCount: number; unreadMessages?: number }) {
  const { t } = useTranslation();
  const badge = unreadBadgeText(unreadCount);
  const bellLabel = unreadCount > 0 ? t('account.header.notificationsUnread', { count: unreadCount }) : t('account.header.notifications');
  // Admins carry the system-admin badge instead of the verification badges (SPEC §6).
  const isAdmin = user.type === 'admin';
  const emailLabel = user.isEmailVerified ? t('account.header.emailVerified') : t('account.header.emailNotVerified');
  const profileBadges = (
    isAdmin ? [t('account.header.systemAdmin')] : [emailLabel, user.isIdVerified ? t('account.header.idVerified') : null]
  ).filter(Boolean);
  const profileTitle = [t('account.header.profile'), ...profileBadges].join(' · ');
  return (
    <header className="site-header user-header">
      <div className="container header-inner">
        <Link to="/" className="brand">
          <Logo />
          <span className="brand-name">{t('app.title')}</span>
        </Link>
        <p className="header-greeting" data-testid="header-greeting">
          {t('account.header.greeting', { name: user.name })}
        </p>
        <div className="header-account">
          <NavLink to="/notifications" className="icon-link bell-link" aria-label={bellLabel} title={bellLabel}>
            <Icon name="bell" />
            {badge ? (
              <span className="unread-badge" aria-hidden="true" data-testid="unread-badge">
                {badge}
              </span>
            ) : null}
            {/* Named by aria-label (with the unread count); this short word is for the eyes, on phones only. */}
            <span className="phone-label" aria-hidden="true">
              {t('account.header.notifications')}
            </span>
          </NavLink>
          <MessagesLink count={unreadMessages} />
          <NavLink to="/me" className="profile-link" title={profileTitle}>
            <Avatar src={user.avatar} alt={t('account.header.profile')} size={36} />
            {isAdmin ? <VerifyBadge kind="admin" label={t('account.header.systemAdmin')} /> : null}
            {/* The envelope says the address's state either way, in words for screen readers and as a title. */}
            {!isAdmin ? <VerifyBadge kind={user.isEmailVerified ? 'email' : 'email-missing'} label={emailLabel} /> : null}
            {!isAdmin && user.isIdVerified ? <VerifyBadge kind="id" label={t('account.header.idVerified')} /> : null}
          </NavLink>
        </div>
        <nav className="header-nav user-nav" aria-label={t('nav.mainNavigation')}>
          <HeaderLink to="/guides" icon="search" label={t('nav.guides')} />
          <HeaderLink to="/board" icon="board" label={t('nav.board')} />
          <HeaderLink to="/favorites" icon="heart" label={t('account.nav.favorites')} />
          <HeaderLink to="/orders" icon="orders" label={t('account.nav.orders')} />
          <HeaderLink to={roleHomePath(user.type)} icon={user.type} label={t(`account.nav.home.${user.type}`)} />
        </nav>
        <div className="header-tools">
          <LanguageForm locale={locale} redirectTo={redirectTo} />
          <ThemeForm theme={theme} redirectTo={redirectTo} />
          {/* Beside the settings, last in the reading order: on a phone the first row keeps room for the app's name
              and the words under its icons (issue 19). */}
          <Form method="post" action="/logout" className="logout-form">
            <button type="submit" className="icon-link logout-button" title={t('account.nav.logout')}>
              <Icon name="logout" />
              <span className="nav-label">{t('account.nav.logout')}</span>
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}

/** Chat (issue 23): the conversations, with the unread message count (kept live by the chat socket events). */
function MessagesLink({ count }: { count: number }) {
  const { t } = useTranslation();
  const badge = unreadBadgeText(count);
  const label = count > 0 ? t('account.header.messagesUnread', { count }) : t('account.header.messages');
  return (
    <NavLink to="/chat" className="icon-link bell-link" aria-label={label} title={label} data-testid="messages-link">
      <Icon name="chat" />
      {badge ? (
        <span className="unread-badge" aria-hidden="true" data-testid="messages-badge">
          {badge}
        </span>
      ) : null}
      {/* Named by aria-label (with the unread count); this short word is for the eyes, on phones only (issue 19). */}
      <span className="phone-label" aria-hidden="true">
        {t('account.header.messages')}
      </span>
    </NavLink>
  );
}

/** A badge on the avatar: a small picture named in words (role img + aria-label) and titled for the pointer. */
function VerifyBadge({ kind, label }: { kind: 'admin' | 'email' | 'email-missing' | 'id'; label: string }) {
  return (
    <span className={`verify-badge verify-${kind}`} role="img" aria-label={label} title={label} data-testid={`verify-${kind}`}>
      <Icon name={kind === 'admin' || kind === 'id' ? 'check' : 'mail'} size={10} />
    </span>
  );
}

/** An icon link with its text: under the icon on phones, beside it from 768 px. */
function HeaderLink({ to, icon, label }: { to: string; icon: IconName; label: string }) {
  return (
    <NavLink to={to} className="icon-link nav-icon-link" title={label}>
      <Icon name={icon} />
      <span className="nav-label">{label}</span>
    </NavLink>
  );
}

type IconName = 'board' | 'chat' | 'bell' | 'heart' | 'orders' | 'search' | 'logout' | 'mail' | 'check' | RoleType;

/** Stroke icons drawn inline (no request, follow currentColor in both themes). */
const ICON_PATHS: Record<IconName, ReactNode> = {
  board: (
    <>
      <rect x="3.5" y="4.5" width="17" height="13" rx="1.5" />
      <path d="M7.5 9h9M7.5 12.5h6M9 17.5l-1.5 3M15 17.5l1.5 3" />
    </>
  ),
  chat: <path d="M4 5.5h16v10H9l-4 3.5v-3.5H4z" />,
  bell: (
    <>
      <path d="M6 17v-6a6 6 0 0 1 12 0v6l1.5 2h-15z" />
      <path d="M10 21.5a2 2 0 0 0 4 0" />
    </>
  ),
  heart: <path d="M12 20s-7.5-4.5-9-9.3C1.9 7.2 4.1 4.5 7.1 4.5c2 0 3.5 1.1 4.9 2.9 1.4-1.8 2.9-2.9 4.9-2.9 3 0 5.2 2.7 4.1 6.2C19.5 15.5 12 20 12 20z" />,
  orders: (
    <>
      <path d="M9 3.5h6v3H9z" />
      <path d="M9 5H6.5A1.5 1.5 0 0 0 5 6.5v13A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5v-13A1.5 1.5 0 0 0 17.5 5H15" />
      <path d="M8.5 11h7M8.5 14.5h7M8.5 18h4" />
    </>
  ),
  search: (
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5" />
    </>
  ),
  logout: (
    <>
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4" />
      <path d="M9 16.5L4.5 12 9 7.5M4.5 12H15" />
    </>
  ),
  mail: (
    <>
      <rect x="3" y="5.5" width="18" height="13" rx="2" />
      <path d="M3.5 7l8.5 6 8.5-6" />
    </>
  ),
  check: <path d="M5 12.5l4.5 4.5L19 7.5" />,
  traveler: (
    <>
      <path d="M3.5 11L12 4l8.5 7" />
      <path d="M5.5 9.5V20H10v-5.5h4V20h4.5V9.5" />
    </>
  ),
  guide: (
    <>
      <path d="M5.5 21V3.5" />
      <path d="M5.5 4.5h12l-2.5 4 2.5 4h-12" />
    </>
  ),
  admin: (
    <>
      <path d="M12 3l7.5 3v5.5c0 4.6-3.2 8.3-7.5 9.5-4.3-1.2-7.5-4.9-7.5-9.5V6z" />
      <path d="M8.5 12l2.5 2.5 4.5-5" />
    </>
  ),
};

function Icon({ name, size = 22 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={size < 16 ? 3 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {ICON_PATHS[name]}
    </svg>
  );
}

