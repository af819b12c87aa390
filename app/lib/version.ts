/** Shown in the footer (SPEC §1: version 1.3.0); kept equal to package.json by a unit test. */
export const APP_VERSION = '1.3.0';
