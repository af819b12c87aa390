import { getDb, type Database } from '~db/client';
import { getConfig } from '~/env.server';
import { isLocale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { wordNotice } from './notice-wording.server';
import { writeNotification } from './notifications.server';
import type { UserRow } from '../accounts/users.server';

/**
 * What a trust decision tells the person it concerns (issue 11): a notification row (its facts, worded again in
 * the reader's language when shown: notice-wording.server.ts), and, for the decisions that matter
 * most, a mail in that language, queued in the same transaction (the outbox, decision 017). Keys live in
 * app/locales/<lang>/trust.json under `notices.<kind>`.
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

/** The decisions that are also mailed (an approved photo is news for the notification list only). */
const MAILED: ReadonlySet<NoticeKind> = new Set(['idApproved', 'idRejected', 'photoRejected', 'guideSuspended', 'guideReinstated']);

/** Writes the notification and, for the kinds that are mailed, queues the mail: in the caller's transaction when given. */
export async function recordNotice(
  user: Recipient,
  kind: NoticeKind,
  params: Record<string, string> = {},
  db: Database = getDb(),
): Promise<void> {
  const locale = isLocale(user.locale) ? user.locale : 'zh-TW';
  const t = await getFixedT(locale);
  const { title, body } = wordNotice(t, locale, `trust.${kind}`, params);
  const link = new URL(LINKS[kind], getConfig().PUBLIC_URL).toString();
  const text = [t('trust.mail.greeting', { name: user.name }), '', body, '', link, '', t('trust.mail.signature')].join('\n');
  // Every notification also goes to the person's browsers that asked for pushes (decision 029).
  await writeNotification(
    {
      userId: user.id,
      type: `trust.${kind}`,
      title,
      body,
      params,
      link: LINKS[kind],
      mail: MAILED.has(kind) ? { to: user.email, subject: t('trust.mail.subject', { title }), text } : undefined,
    },
    db,
  );
}
