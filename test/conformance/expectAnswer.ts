// Assertions on the envelope that every conformance file makes: an answer described for a failure
// message, and a successful answer's result.
import { expect } from 'vitest';
import { errorOf, isSuccess, type Answer } from './specClient.ts';

/** The status and body of an answer, shown when an assertion on it fails. */
export const describeAnswer = (answer: Answer) => `HTTP ${answer.status}: ${answer.text}`;

/** Asserts the envelope says success and returns its result. */
export function expectSuccess<T>(answer: Answer<T>): T {
  expect(isSuccess(answer), describeAnswer(answer)).toBe(true);
  return answer.envelope!.result;
}

/** Asserts a refusal: the HTTP status and the stable `result.error`. */
export function expectError(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer) }, describeAnswer(answer)).toEqual({ status, error });
}
