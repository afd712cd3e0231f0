/**
 * Below this confidence a field is marked on the invoice's card ("Check: read with low confidence") rather than shown
 * as if certain. Chosen on the real-world corpus's dev part (`npm run eval` prints how many fields fall on each side
 * and how many of them are right); e-invoice fields are 1, the rules' scores are calibrated by hand.
 */
export const LOW_CONFIDENCE = 0.5;
