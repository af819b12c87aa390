/**
 * Every action the audit log records (issue 35), defined once: recordAudit's type (app/services/platform/audit.server.ts)
 * accepts only these, so a new action does not compile until it is listed here, and
 * tests/unit/audit-actions.test.ts checks that each one has a label in zh-TW, en and ja
 * (`admin.logs.actions.<code>`, auditActionKey in audit-details.ts: the list itself stays out of the browser), which /admin/logs and the audit log export show instead of the code.
 */
export const AUDIT_ACTIONS = [
  // Accounts (the admin console, logins of admins, avatars, profile changes by someone else).
  'user.archive',
  'user.restore',
  'user.block',
  'user.unblock',
  'user.sessions_end',
  'user.verification_resend',
  'user.role_change',
  'user.profile_update',
  'user.login',
  'user.login_failed',
  'user.avatar.set',
  'user.avatar.remove',
  'guide.suspend',
  'guide.reinstate',
  // Identity checks.
  'id_verification.submit',
  'id_verification.approve',
  'id_verification.reject',
  'id_verification.document_view',
  // Orders and money.
  'order.confirm',
  'order.decline',
  'order.cancel',
  'order.complete',
  'order.refund',
  'order.delete',
  'order.restore',
  'order.note',
  'payment.refund_resolved',
  'payout.paid',
  'payout_account.change',
  'reconciliation.run',
  // Content.
  'review.hide',
  'review.unhide',
  'review.delete',
  'photo.upload',
  'photo.delete',
  'photo.approve',
  'photo.reject',
  'banner.create',
  'banner.update',
  'banner.delete',
  'banner.move',
  'terms.publish',
  'board.delete',
  'board.hide',
  'board.reply.delete',
  'board.reply.hide',
  'chat.read',
  'chat.message.hide',
  'chat.report.dismiss',
  // Exports.
  'export.users',
  'export.orders',
  'export.reviews',
  'export.logs',
  'export.payouts',
  // The development tools (never in production).
  'dev.user.create',
  'dev.user.update',
  'dev.user.delete',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return (AUDIT_ACTIONS as readonly unknown[]).includes(value);
}
