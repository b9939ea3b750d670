// How long an identity review usually takes, said in one place: the pages that show a pending
// application (basic, advanced, the result) all read it, so the promise changes in one line when
// the review desk's staffing does.
import { msg } from '@lingui/core/macro';

/** The usual wait for an operator's decision on a verification, in hours. */
export const reviewHoursUsual = 24;

export const reviewTimeExpectation = msg`Usually reviewed within ${reviewHoursUsual} hours.`;
