// Any path no other route matches: the root error boundary renders the translated 404 page.
export function loader() {
  throw new Response('Not Found', { status: 404 });
}

export default function NotFound() {
  return null;
}
