// What a PSU typed leaves a Playwright trace masked, whatever its length: the action's parameters and the log
// line that repeats them. Lines that are not typing actions, or not JSON, are kept as they are.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maskTypedValues } from '../../lib/sca/trace-mask.js';

const TRACE = [
  '{"version":10,"type":"context-options","browserName":"chromium"}',
  '{"type":"before","callId":"c@10","startTime":1,"class":"Frame","method":"fill","params":{"selector":"#pin","strict":true,"value":"p@\\"1","timeout":3000}}',
  '{"type":"log","callId":"c@10","time":2,"message":"waiting for locator(\'#pin\')"}',
  '{"type":"log","callId":"c@10","time":3,"message":"  fill(\\"p@\\"1\\")"}',
  '{"type":"before","callId":"c@12","startTime":4,"class":"Frame","method":"selectOption","params":{"selector":"#s","options":[{"valueOrLabel":"ACC-1"}]}}',
  '{"type":"before","callId":"c@14","startTime":5,"class":"Frame","method":"click","params":{"selector":"#go"}}',
  '{"type":"after","callId":"c@16","result":{"value":"CODE-777"}}',
  'not json "callId"',
].join('\n');

describe('masking what was typed in a trace', () => {
  const masked = maskTypedValues(TRACE, (value) => `<${value.length}>`);
  const lines = masked.split('\n');

  test('a fill value and its log line are hidden, however short', () => {
    assert.ok(!masked.includes('p@'), masked);
    assert.deepEqual((JSON.parse(lines[1] ?? '') as { params: { value: string; selector: string } }).params, {
      selector: '#pin',
      strict: true,
      value: '<4>',
      timeout: 3000,
    });
    assert.equal((JSON.parse(lines[3] ?? '') as { message: string }).message, '  fill([masked])');
    assert.equal(lines[2], TRACE.split('\n')[2], 'other log lines of the action stay');
  });

  test('a selected option is hidden; clicks, results and lines that are not JSON are kept', () => {
    assert.ok(!masked.includes('ACC-1'));
    for (const index of [0, 5, 6, 7]) assert.equal(lines[index], TRACE.split('\n')[index]);
  });
});
