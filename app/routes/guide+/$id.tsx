// /guide/:id is the same page as /guides/:id (SPEC §2 lists both).
export { default, handle, loader, meta } from '../guides+/$id';
