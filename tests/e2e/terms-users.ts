/** Demo people who have not agreed to the terms in the e2e database (prepare-data.ts), one per project. */
export const TERMS_PENDING = ['guide32@demo.travel-assistant.tw', 'guide33@demo.travel-assistant.tw'] as const;
/** Issue 35: English readers who agreed to the English terms and to zh-TW 1.0.0, not to zh-TW 1.1.0 (one per project). */
export const TERMS_ENGLISH = ['e2e-terms-english-js-on@example.com', 'e2e-terms-english-js-off@example.com'] as const;
/** Issue 35: people who have not agreed and disagree in the test (one per project). */
export const TERMS_DISAGREE = ['e2e-terms-disagree-js-on@example.com', 'e2e-terms-disagree-js-off@example.com'] as const;
