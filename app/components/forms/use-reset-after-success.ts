import { useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';

/**
 * With JS, a form that stays on the page after a successful submit (its action redirects back here) keeps what was
 * typed, inviting a second, duplicate post (issue 35). This empties it once a submit of `intent` went through:
 * the navigation ended and the action answered no errors for this form (`failed`). Without JS the redirect loads a
 * fresh, empty page anyway.
 */
export function useResetAfterSuccess(form: { reset: () => void }, intent: string, failed: boolean): void {
  const navigation = useNavigation();
  const sent = useRef(false);
  useEffect(() => {
    if (navigation.state !== 'idle') {
      if (navigation.formData?.get('intent') === intent) sent.current = true;
      return;
    }
    if (sent.current && !failed) form.reset();
    sent.current = false;
  }, [navigation.state, navigation.formData, intent, failed, form]);
}
