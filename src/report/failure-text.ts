import { lexemeAt } from '../json/lossless.js';
import type { CheckResult } from './model.js';

/**
 * The failing exchange as plain text: message, request, response, reproduction.
 * @param headed the first line of the message is shown apart (report.html's card heads
 *   with it): the text starts at its second.
 */
export function failureText(check: CheckResult, headed = false): string {
  const failure = check.failure!;
  const { request, response, error } = failure;
  const message = headed ? failure.message.split('\n').slice(1) : [failure.message];
  const lines = [...message, ...(message.length > 0 ? [''] : []), `${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('', request.body);
  lines.push('');
  if (response) {
    lines.push(`HTTP ${response.status}`);
    for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
    lines.push('', response.body);
    // Where in the body it deviates, as the console marks it: `at /0/id: "1"`.
    const at = failure.pointer !== undefined ? lexemeAt(response.body, failure.pointer) : undefined;
    if (at !== undefined) lines.push('', `at ${failure.pointer}: ${at}`);
  } else if (error) {
    lines.push(`no response: ${error.code}: ${error.message}`);
  }
  if (failure.replay) {
    // curl sends a body in one piece: the tool's replay sends the chunks it went in.
    lines.push('', `Reproduce: ${failure.replay}`, `With curl (one chunk, not ${failure.request.chunks!.length}): ${failure.curl}`);
  } else if (failure.curl) lines.push('', `Reproduce: ${failure.curl}`);
  return lines.join('\n');
}
