// /guide/:id is the same page as /guides/:id (SPEC §2 lists both).
export { default, loader, meta } from '../guides+/$id';
