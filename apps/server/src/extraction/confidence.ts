/**
 * Below this confidence a field is marked on the invoice's card ("Check: read with low confidence") rather than shown
 * as if certain. Chosen on the real-world corpus's dev part (`npm run eval` prints how many fields fall on each side
 * and how many of them are right); e-invoice fields are 1, the rules' scores are calibrated by hand.
 */
export const LOW_CONFIDENCE = 0.5;

/**
 * A reading from OCR counts for less than the same rule on a text layer: a misread digit or letter looks as sure to
 * the rules as a printed one. Measured on the real corpus's dev part (images and photos): fields the rules rated
 * 0.7–0.8 were right 80 % of the time from OCR, 100 % from text PDFs; the 13 wrong OCR fields were all below 0.8. With
 * this factor an OCR field below 0.83 falls under LOW_CONFIDENCE.
 */
export const OCR_CONFIDENCE_FACTOR = 0.6;
