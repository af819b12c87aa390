import { getDb, type Database } from '~db/client';
import { notifications } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { sendMail } from './mail.server';
import type { UserRow } from './users.server';

/**
 * What a trust decision tells the person it concerns (issue 11): a notification row written in their own
 * interface language (the bell and /notifications show it as stored), and, for the decisions that matter
 * most, a mail in that language. Keys live in app/locales/<lang>/trust.json under `notices.<kind>`.
 */
export type NoticeKind =
  | 'idApproved'
  | 'idRejected'
  | 'photoApproved'
  | 'photoRejected'
  | 'guideSuspended'
  | 'guideReinstated';

const LINKS: Record<NoticeKind, string> = {
  idApproved: '/id-verification',
  idRejected: '/id-verification',
  photoApproved: '/me',
  photoRejected: '/me',
  guideSuspended: '/guide',
  guideReinstated: '/guide',
};

type Recipient = Pick<UserRow, 'id' | 'name' | 'email' | 'locale'>;

/** Writes the notification (in the caller's transaction when given). */
export async function recordNotice(
  user: Recipient,
  kind: NoticeKind,
  params: Record<string, string> = {},
  db: Database = getDb(),
): Promise<void> {
  const t = await getFixedT(isLocale(user.locale) ? user.locale : 'zh-TW');
  const body = t(`trust.notices.${kind}.body`, { ...params, reason: params.reason || t('trust.notices.noReason') });
  await db.insert(notifications).values({
    userId: user.id,
    type: `trust.${kind}`,
    title: t(`trust.notices.${kind}.title`),
    body,
    link: LINKS[kind],
  });
}

/** Mails the same news (after the change is committed: a failed send must not undo a decision). */
export async function mailNotice(user: Recipient, kind: NoticeKind, params: Record<string, string> = {}): Promise<void> {
  const t = await getFixedT(isLocale(user.locale) ? user.locale : 'zh-TW');
  const link = new URL(LINKS[kind], getConfig().PUBLIC_URL).toString();
  const text = [
    t('trust.mail.greeting', { name: user.name }),
    '',
    t(`trust.notices.${kind}.body`, { ...params, reason: params.reason || t('trust.notices.noReason') }),
    '',
    link,
    '',
    t('trust.mail.signature'),
  ].join('\n');
  try {
    await sendMail({ to: user.email, subject: t('trust.mail.subject', { title: t(`trust.notices.${kind}.title`) }), text });
  } catch (error) {
    console.error(`trust mail (${kind}) to user ${user.id} failed`, error);
  }
}
