import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type Submission,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CITY_CODES } from '~/lib/cities';
import { LANGUAGE_CODES } from '~/lib/languages';
import { BIO_MAX, profileSchemaFor } from '~/schemas/profile';
import { GuideProfileFields } from '~/components/guide-profile-fields';
import { translateMessage, type ProfileUser } from './types';

/** Every field the form may send (guides have four more than travelers and admins). */
interface ProfileFields {
  name: string;
  email: string;
  bio: string;
  city: string;
  language: string[];
  price: string;
  description: string;
  headline: string;
  headlineEn: string;
  headlineJa: string;
  descriptionEn: string;
  descriptionJa: string;
}

/**
 * Edit mode of /me (SPEC §2, /tmp UI contract): one plain POST form, checked in the browser with the same
 * schema the server uses; the server's answer (field errors, or a form message) re-renders it with every
 * value kept.
 */
export function ProfileEditForm({ user, lastResult }: { user: ProfileUser; lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const schema = profileSchemaFor(user.type);
  const isGuide = user.type === 'guide';
  const [form, fields] = useForm<ProfileFields>({
    id: 'profile-edit',
    lastResult,
    defaultValue: {
      name: user.name,
      email: user.email,
      bio: user.bio ?? '',
      city: user.city ?? '',
      language: user.language,
      price: user.price === null ? '' : String(user.price),
      description: user.description ?? '',
      headline: user.headline ?? '',
      headlineEn: user.localized?.en?.headline ?? '',
      headlineJa: user.localized?.ja?.headline ?? '',
      descriptionEn: user.localized?.en?.description ?? '',
      descriptionJa: user.localized?.ja?.description ?? '',
    },
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as unknown as Submission<ProfileFields>,
  });
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const message = (m: string) => translateMessage(t, m);

  const describedBy = (field: { errors?: string[]; errorId: string; id: string }, hint?: boolean) =>
    [field.errors ? field.errorId : null, hint ? `${field.id}-hint` : null].filter(Boolean).join(' ') || undefined;
  const error = (field: { errors?: string[]; errorId: string }) =>
    field.errors ? (
      <p className="field-error" id={field.errorId}>
        {field.errors.map(message).join(' ')}
      </p>
    ) : null;

  return (
    <section className="card profile-panel" aria-labelledby="profile-edit-title">
      <h2 id="profile-edit-title">{t('profile.editTitle')}</h2>
      <Form method="post" action="/me?edit=1" className="form profile-form" {...getFormProps(form)}>
        {form.errors ? (
          <p className="form-error" id={form.errorId} role="alert">
            {form.errors.map(message).join(' ')}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={fields.name.id}>{t('profile.fields.name')}</label>
          <input
            {...getInputProps(fields.name, { type: 'text' })}
            key={fields.name.key}
            autoComplete="name"
            aria-describedby={describedBy(fields.name)}
          />
          {error(fields.name)}
        </div>
        <div className="field">
          <label htmlFor={fields.email.id}>{t('profile.fields.email')}</label>
          <input
            {...getInputProps(fields.email, { type: 'email' })}
            key={fields.email.key}
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby={describedBy(fields.email, true)}
          />
          <p className="field-hint" id={`${fields.email.id}-hint`}>
            {t('profile.fields.emailHint')}
          </p>
          {error(fields.email)}
        </div>
        <div className="field">
          <label htmlFor={fields.bio.id}>{t('profile.fields.bio')}</label>
          <textarea
            {...getTextareaProps(fields.bio)}
            key={fields.bio.key}
            rows={4}
            maxLength={BIO_MAX}
            aria-describedby={describedBy(fields.bio, true)}
          />
          <p className="field-hint" id={`${fields.bio.id}-hint`}>
            {t('profile.fields.bioHint')}
          </p>
          {error(fields.bio)}
        </div>

        {isGuide && (
          <GuideProfileFields
            fields={fields}
            legend={t('profile.fields.guideSection')}
            className="profile-guide-fields"
            renderError={error}
            translations={fields}
          />
        )}

        <div className="form-actions">
          <button type="submit" name="intent" value="save" className="button" disabled={saving}>
            {saving ? t('profile.saving') : t('profile.save')}
          </button>
          <Link to="/me" className="button button-secondary">
            {t('profile.cancel')}
          </Link>
        </div>
      </Form>
    </section>
  );
}
