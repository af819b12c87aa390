import type { FetcherWithComponents } from '@remix-run/react';
import type { FormEvent } from 'react';

/**
 * onSubmit for a plain POST form that works without JS (its action redirects back with a toast): with JS the
 * fetcher posts the same fields plus `respond=json`, and the action answers JSON instead of redirecting. Added at
 * submit time rather than rendered after hydration, so hydration renders nothing twice.
 */
export function submitWithJsonReply(fetcher: Pick<FetcherWithComponents<unknown>, 'submit'>) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const formData = new FormData(form);
    formData.set('respond', 'json');
    fetcher.submit(formData, { method: 'post', action: form.getAttribute('action') ?? undefined, preventScrollReset: true });
  };
}
