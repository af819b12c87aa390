import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { BIO_MAX, profileSchemaFor } from '~/schemas/profile';
import { Field, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { GuideProfileFields } from '~/components/guide-profile-fields';
import type { ProfileUser } from './__profile-types';

/** Every field the form may send (guides have four more than travelers and admins). */
interface ProfileFields {
  name: string;
  email: string;
  bio: string;
  city: string;
  language: string[];
  price: string;
  maxGroupSize: string;
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
  const [form, fields] = useSchemaForm<ProfileFields>({
    id: 'profile-edit',
    schema,
    lastResult,
    defaultValue: {
      name: user.name,
      email: user.email,
      bio: user.bio ?? '',
      city: user.city ?? '',
      language: user.language,
      price: user.price === null ? '' : String(user.price),
      maxGroupSize: user.maxGroupSize === null ? '' : String(user.maxGroupSize),
      description: user.description ?? '',
      headline: user.headline ?? '',
      headlineEn: user.localized?.en?.headline ?? '',
      headlineJa: user.localized?.ja?.headline ?? '',
      descriptionEn: user.localized?.en?.description ?? '',
      descriptionJa: user.localized?.ja?.description ?? '',
    },
  });
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';

  return (
    <section className="card profile-panel" aria-labelledby="profile-edit-title">
      <h2 id="profile-edit-title">{t('profile.editTitle')}</h2>
      <Form method="post" action="/me?edit=1" className="form profile-form" {...getFormProps(form)}>
        <FormErrors form={form} />
        <Field field={fields.name} label={t('profile.fields.name')} autoComplete="name" />
        <Field
          field={fields.email}
          type="email"
          label={t('profile.fields.email')}
          hint={t('profile.fields.emailHint')}
          autoComplete="email"
        />
        <TextareaField field={fields.bio} label={t('profile.fields.bio')} hint={t('profile.fields.bioHint')} rows={4} maxLength={BIO_MAX} />

        {isGuide && (
          <GuideProfileFields
            fields={fields}
            legend={t('profile.fields.guideSection')}
            className="profile-guide-fields"
            translations={fields}
          />
        )}

        <div className="form-actions">
          <SubmitButton name="intent" value="save" busy={saving} label={t('profile.save')} busyLabel={t('profile.saving')} />
          <Link to="/me" className="button button-secondary">
            {t('profile.cancel')}
          </Link>
        </div>
      </Form>
    </section>
  );
}
