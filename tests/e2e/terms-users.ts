/** Demo people who have not agreed to the terms in the e2e database (prepare-data.ts), one per project. */
export const TERMS_PENDING = ['guide32@demo.travel-assistant.tw', 'guide33@demo.travel-assistant.tw'] as const;
