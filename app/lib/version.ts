import { version } from '../../package.json';

/** Shown in the footer and the OpenAPI document (SPEC §1); package.json is the one place it is written. */
export const APP_VERSION: string = version;
